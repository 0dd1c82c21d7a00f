// runAction in this process: a recording Actions toolkit (inputs with the action.yml defaults the
// runner fills in, outputs, failure, log lines, annotations, job summary, masked values) and the
// rest of an action's deps (a workspace of files, the environment, the real clock, the real file
// system). A GitHub API call fails the run: these tests ask for no PR comment or Deployment.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { realClock } from '../../src/app/clock.ts';
import { githubContext } from '../../src/action/github-context.ts';
import type { ActionDef } from '../../src/action/definitions.ts';
import { runAction, type ActionDeps } from '../../src/action/run-action.ts';
import type { AnnotationProps, Toolkit } from '../../src/action/toolkit.ts';

export interface Recorded {
  outputs: Record<string, string>;
  /** setFailed's messages. */
  failed: string[];
  /** info lines, group titles among them. */
  log: string[];
  warnings: { message: string; props?: AnnotationProps | undefined }[];
  errors: { message: string; props?: AnnotationProps | undefined }[];
  summary: string;
  secrets: string[];
}

/** A toolkit that answers getInput from `inputs` (else the input's default) and records the rest. */
export function recordingKit(def: ActionDef, inputs: Record<string, string>): { kit: Toolkit; recorded: Recorded } {
  const recorded: Recorded = { outputs: {}, failed: [], log: [], warnings: [], errors: [], summary: '', secrets: [] };
  const kit: Toolkit = {
    getInput: (name) => inputs[name] ?? def.inputs[name]?.default ?? '',
    setSecret: (s) => void recorded.secrets.push(s),
    setOutput: (name, value) => void (recorded.outputs[name] = value),
    info: (line) => void recorded.log.push(line),
    startGroup: (title) => void recorded.log.push(`group: ${title}`),
    endGroup: () => undefined,
    error: (message, props) => void recorded.errors.push({ message, props }),
    warning: (message, props) => void recorded.warnings.push({ message, props }),
    setFailed: (message) => void recorded.failed.push(message),
    appendSummary: async (markdown) => void (recorded.summary += markdown),
  };
  return { kit, recorded };
}

export interface InProcessAction {
  inputs: Record<string, string>;
  /** The runner's environment (GITHUB_*, ENGINE_*, ENGINECTL_STORE ...). */
  env?: Record<string, string>;
  /** Files of the workspace, by path relative to it. */
  files?: Record<string, string>;
  /** The workspace of an earlier run (a second job of one checkout). */
  workspace?: string;
  signal?: AbortSignal;
}

export interface InProcessRun extends Recorded {
  code: number;
  workspace: string;
}

/** Runs the action `def` in this process, as its bundle's main() would on a runner. */
export async function runActionInProcess(def: ActionDef, options: InProcessAction): Promise<InProcessRun> {
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'enginectl-workspace-'));
  for (const [name, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(workspace, name)), { recursive: true });
    writeFileSync(join(workspace, name), text);
  }
  const reportDir = mkdtempSync(join(tmpdir(), 'enginectl-runner-temp-'));
  const env = { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: reportDir, ...options.env };
  const { kit, recorded } = recordingKit(def, options.inputs);
  const clock = realClock();
  const deps: ActionDeps = {
    kit,
    env,
    cwd: workspace,
    context: githubContext(env, undefined),
    readFile: (path) => readFile(path, 'utf8'),
    filesUnder: async (path) => {
      const found = await stat(path).catch(() => undefined);
      if (!found?.isDirectory()) return undefined;
      const entries = await readdir(path, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    },
    github: () => {
      throw new Error('this test asked for no GitHub API call');
    },
    signal: options.signal ?? new AbortController().signal,
    now: clock.now,
    sleep: clock.sleep,
    reportDir,
  };
  const code = await runAction(def, deps);
  return { code, workspace, ...recorded };
}
