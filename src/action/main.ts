// The edge of the action bundles: the real @actions/core, the event payload, Octokit, signals
// and the process exit code, wired to runAction.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import * as core from '@actions/core';
import { realClock } from '../app/clock.ts';
import { appendWithin } from '../app/job-summary.ts';
import { endBySignalIfHeld, trapSignals } from '../signals.ts';
import { endWhenPoolHeld, storeCallsLeftWaiting } from '../store/store.ts';
import { actionDef, type ActionDef } from './definitions.ts';
import { githubContext } from './github-context.ts';
import { octokitApi } from './octokit-api.ts';
import { runAction } from './run-action.ts';
import type { Toolkit } from './toolkit.ts';

function event(path: string | undefined): unknown {
  if (!path) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether the module at `url` is the program the runner started (not a module imported by a test
 * tool). Node loads the program at its real path: a runner's work directory that is a symbolic
 * link (a self-hosted runner's, moved to a larger disk) starts it by another path, which must not
 * make the action exit 0 having done nothing.
 */
export function isEntry(url: string): boolean {
  const started = process.argv[1];
  if (started === undefined) return false;
  if (pathToFileURL(started).href === url) return true;
  try {
    return pathToFileURL(realpathSync(started)).href === url;
  } catch {
    return false;
  }
}

export async function main(id: ActionDef['id']): Promise<void> {
  const signals = trapSignals();
  endWhenPoolHeld(signals, (text) => process.stderr.write(text));
  const kit: Toolkit = {
    getInput: (name) => core.getInput(name),
    setSecret: (s) => core.setSecret(s),
    setOutput: (name, value) => core.setOutput(name, value),
    info: (line) => core.info(line),
    startGroup: (t) => core.startGroup(t),
    endGroup: () => core.endGroup(),
    error: (m, p) => core.error(m, p),
    warning: (m, p) => core.warning(m, p),
    setFailed: (m) => core.setFailed(m),
    // Within GitHub's 1 MiB of the step's summary file, counting what it holds already.
    appendSummary: async (markdown) => {
      if (!process.env.GITHUB_STEP_SUMMARY) return;
      const done = await appendWithin(process.env.GITHUB_STEP_SUMMARY, () => `${markdown}\n`);
      if (done.said) core.info(done.said);
      if (done.warning) core.warning(done.warning, { title: 'enginectl' });
    },
  };
  const context = githubContext(process.env, event(process.env.GITHUB_EVENT_PATH));
  const clock = realClock();
  const code = await runAction(actionDef(id), {
    kit,
    env: process.env,
    cwd: process.env.GITHUB_WORKSPACE ?? process.cwd(),
    context,
    filesUnder: async (path) => {
      const found = await stat(path).catch(() => undefined);
      if (!found?.isDirectory()) return undefined;
      const entries = await readdir(path, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    },
    github: (token) =>
      octokitApi(token, context.owner, context.repo, process.env.GITHUB_API_URL, { signal: signals.signal }),
    signal: signals.signal,
    now: clock.now,
    sleep: clock.sleep,
    latest: clock.latest,
    reportDir: process.env.RUNNER_TEMP ?? tmpdir(),
  });
  signals.release();
  process.exitCode = signals.exitCode(code);
  endBySignalIfHeld(signals, storeCallsLeftWaiting(), (text) => process.stderr.write(text));
}
