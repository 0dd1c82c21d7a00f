// Golden files pin what a person reads in the terminal and in a CI log: `enginectl run` as a
// process on the embedded emulator, a run that succeeds, one that fails with its error and hint,
// the same failure framed for GitHub and GitLab, and a dry run. Durations and the emulator's port
// change from run to run and are replaced; nothing else is. UPDATE_GOLDEN=1 npm test rewrites
// them; review the diff before committing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { golden } from '../helpers/golden.ts';
import { VERSION } from '../../src/version.ts';
import { runCli } from '../helpers/cli.ts';

const CASES: { name: string; args: string[]; code: number }[] = [
  {
    name: 'run-success',
    args: ['run', 'pipelines/multi-target-release.yml', '--emulator', '--only', 'target=prod', '--ci', 'plain'],
    code: 0,
  },
  { name: 'run-failure', args: ['run', 'pipelines/update-with-cleanup.yml', '--emulator', '--ci', 'plain'], code: 1 },
  {
    name: 'run-failure-github',
    args: ['run', 'pipelines/update-with-cleanup.yml', '--emulator', '--ci', 'github'],
    code: 1,
  },
  {
    name: 'run-failure-gitlab',
    args: ['run', 'pipelines/update-with-cleanup.yml', '--emulator', '--ci', 'gitlab'],
    code: 1,
  },
  {
    name: 'dry-run',
    args: ['run', 'pipelines/multi-target-release.yml', '--emulator', '--dry-run', '--ci', 'plain'],
    code: 0,
  },
];

/** What changes between two runs of the same pipeline: durations, the port, GitLab's clock, the version. */
export function stable(text: string): string {
  return text
    .replaceAll(VERSION, '0.0.0-golden')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/section_(start|end):\d+:/g, 'section_$1:TIME:')
    .replace(/\b\d+(?:\.\d)?(?:ms|s)\b|\b\d+h(?:\d+m)?(?:\d+s)?\b|\b\d+m(?:\d+s)?\b/g, 'T');
}

const STILL = Date.parse('2026-03-10T05:00:10Z');

for (const c of CASES) {
  test(`terminal golden: enginectl ${c.args.join(' ')}`, async () => {
    // The run's clock stands still but for its waits, 10 s past a monitoring refresh: the Engines
    // gate after the update always reads the version of before once (on a clock moving with real
    // time, a loaded machine could cross a refresh between the update and the gate).
    const r = await runCli(c.args, { env: { QA_TOKEN: 'qa-token-123' }, emulatorTime: () => STILL });
    assert.equal(r.code, c.code, r.stderr);
    const actual = stable(`${r.stdout}${r.stderr ? `--- stderr\n${r.stderr}` : ''}`);
    golden(`terminal/${c.name}.txt`, actual);
  });
}
