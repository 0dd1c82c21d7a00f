// runAction in this process: a recording Actions toolkit (inputs with the action.yml defaults the
// runner fills in, outputs, failure, log lines, annotations, job summary, masked values) and the
// rest of an action's deps as a runner gives them: a workspace of files, the workflow's GITHUB_*
// variables and event, the real clock and file system, and the real GitHub API client (Octokit)
// pointed at a local GitHub API (startGitHubApi in action.ts; nothing listens by default).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { realClock, type Clock } from '../../src/app/clock.ts';
import type { AtomicFs } from '../../src/app/atomic-write.ts';
import type { JournalFs } from '../../src/journal/file.ts';
import { githubContext } from '../../src/action/github-context.ts';
import { octokitApi } from '../../src/action/octokit-api.ts';
import type { ActionDef } from '../../src/action/definitions.ts';
import { runAction, type ActionDeps } from '../../src/action/run-action.ts';
import type { AnnotationProps, Toolkit } from '../../src/action/toolkit.ts';
import { FAKE_GITHUB_TOKEN } from './action.ts';

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
    getInput: (name) => {
      if (name in inputs) return inputs[name]!;
      const given = def.inputs[name]?.default ?? '';
      return given === '${{ github.token }}' ? FAKE_GITHUB_TOKEN : given;
    },
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

/** Data of a workflow command as @actions/core writes it: %, CR and LF escaped. */
const commandData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const commandProperty = (s: string) => commandData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * What the runner reads of a recorded action, as @actions/core prints it: info lines as they are,
 * groups, annotations and the failure as workflow commands (their data escaped).
 */
export function runnerLog(recorded: Recorded): string {
  const annotation = (kind: string, a: { message: string; props?: AnnotationProps | undefined }) => {
    const props = Object.entries(a.props ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${commandProperty(String(v))}`)
      .join(',');
    return `::${kind}${props ? ` ${props}` : ''}::${commandData(a.message)}`;
  };
  return [
    ...recorded.log.map((line) => (line.startsWith('group: ') ? `::group::${commandData(line.slice(7))}` : line)),
    ...recorded.warnings.map((w) => annotation('warning', w)),
    ...recorded.errors.map((e) => annotation('error', e)),
    ...recorded.failed.map((m) => `::error::${commandData(m)}`),
  ].join('\n');
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
  /** The workflow's event payload (a pull_request event when it has one). */
  event?: unknown;
  /** The GitHub API's URL (GITHUB_API_URL). */
  githubApi?: string;
  /** The run's clock (default: the real one): a simulated one the test's emulator reads too. */
  clock?: Clock;
  /** The file system the report files are written with (a full disk). */
  reportFs?: AtomicFs;
  /** The file system the journal is written with (a full disk). */
  journalFs?: JournalFs;
  /** The run's steady time (default: performance.now): moved on by a write that took long. */
  stopwatch?: () => number;
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
  const pullRequest = !!options.event && typeof options.event === 'object' && 'pull_request' in options.event;
  const env: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: pullRequest ? 'pull_request' : 'push',
    GITHUB_REPOSITORY: 'acme/erp',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_RUN_ID: '4242',
    GITHUB_SERVER_URL: 'https://github.example.com',
    GITHUB_API_URL: options.githubApi ?? 'http://127.0.0.1:9',
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: reportDir,
    ...options.env,
  };
  for (const name of Object.keys(options.inputs))
    if (!(name in def.inputs)) throw new Error(`the action ${def.id} has no input ${name}`);
  const signal = options.signal ?? new AbortController().signal;
  const context = githubContext(env, options.event);
  const { kit, recorded } = recordingKit(def, options.inputs);
  const clock = options.clock ?? realClock();
  const deps: ActionDeps = {
    kit,
    env,
    cwd: workspace,
    context,
    filesUnder: async (path) => {
      const found = await stat(path).catch(() => undefined);
      if (!found?.isDirectory()) return undefined;
      const entries = await readdir(path, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    },
    github: (token) => octokitApi(token, context.owner, context.repo, env.GITHUB_API_URL, { signal }),
    signal,
    now: clock.now,
    sleep: clock.sleep,
    latest: clock.latest,
    reportDir,
    ...(options.reportFs ? { reportFs: options.reportFs } : {}),
    ...(options.journalFs ? { journalFs: options.journalFs } : {}),
    ...(options.stopwatch ? { stopwatch: options.stopwatch } : {}),
  };
  const code = await runAction(def, deps);
  return { code, workspace, ...recorded };
}
