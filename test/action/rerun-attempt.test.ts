// GitHub runs a job again ("Re-run failed jobs", "Re-run all jobs") with the same GITHUB_RUN_ID and
// one more GITHUB_RUN_ATTEMPT, on a fresh runner, with the same inputs. With a run store, the action
// goes on with the run an earlier attempt of the same step started: what it applied is not sent
// again, and a write it left in doubt needs the in-doubt input, as a resume does. Without that,
// every attempt started a run of its own and sent every write again.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { parseFault } from '../../src/emulator/index.ts';
import { ExitCode } from '../../src/errors.ts';
import { simulatedClock } from '../../src/app/clock.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const ROOT = actionDef('enginectl');

const PIPELINE = `version: 1
name: Rerun
vars:
  release: "26.10"
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: clear
    uses: transaction-log/clear
`;

async function setup(t: TestContext) {
  // The clear's first call: the server fails (503), and whether it cleared cannot be told.
  const { url, emulator } = await startEmulator(t, {
    faults: [parseFault('POST /api/devops/v1/transaction-log/clear status=503 times=1')],
  });
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-rerun-')), 'store');
  mkdirSync(store);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const job = { GITHUB_RUN_ID: '7801', GITHUB_JOB: 'deploy', GITHUB_ACTION: 'release' };
  /** The step on a fresh runner in attempt `n` of the workflow run, with `inputs` besides the store. */
  const attempt = (n: number, inputs: Record<string, string> = {}, more: Record<string, string> = {}) =>
    runActionInProcess(ROOT, {
      files: { 'release.yml': PIPELINE },
      inputs: { pipeline: 'release.yml', store: `file://${store}`, ...inputs },
      env: { ...env, ...job, GITHUB_RUN_ATTEMPT: String(n), ...more },
    });
  const sent = (suffix: string) =>
    emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix)).length;
  return { attempt, sent };
}

test('a re-run of a failed job goes on with the run its earlier attempt started: the applied vfs update is not sent again, and the clear in doubt waits for in-doubt', async (t) => {
  const s = await setup(t);
  const first = await s.attempt(1);
  assert.equal(first.code, ExitCode.failed, first.log.join('\n'));
  const runId = first.outputs['run-id'];
  assert.equal(s.sent('/update/vfs'), 1);
  assert.equal(s.sent('/transaction-log/clear'), 1);

  // Attempt 2, the same inputs: the same run, nothing sent; the clear in doubt is the operator's to decide.
  const second = await s.attempt(2);
  assert.equal(second.code, ExitCode.invalidInput, second.log.join('\n'));
  assert.equal(second.outputs['run-id'], runId, 'the run of attempt 1');
  assert.match(
    second.log.join('\n'),
    new RegExp(
      `attempt 2 of workflow run 7801: going on with run ${runId}, which an earlier attempt of this step started`,
    ),
  );
  assert.match(
    second.failed.join('\n'),
    /cannot resume: an instance is in doubt: "Clear the transaction log \(iLog\)"/,
  );
  assert.match(second.summary, /in-doubt: /, 'the summary says which input decides it');
  assert.equal(s.sent('/update/vfs'), 1, 'the vfs update attempt 1 applied is not sent again');
  assert.equal(s.sent('/transaction-log/clear'), 1, 'nothing sent while the clear is in doubt');

  // Attempt 3, told what to do with it (in-doubt: retry): the clear alone is sent again.
  const third = await s.attempt(3, { 'in-doubt': 'retry' });
  assert.equal(third.code, ExitCode.ok, third.log.join('\n'));
  assert.equal(third.outputs['run-id'], runId);
  assert.equal(s.sent('/update/vfs'), 1);
  assert.equal(s.sent('/transaction-log/clear'), 2);

  // A re-run after it succeeded sends nothing.
  const fourth = await s.attempt(4);
  assert.equal(fourth.code, ExitCode.ok, fourth.log.join('\n'));
  assert.equal(s.sent('/update/vfs') + s.sent('/transaction-log/clear'), 3);
});

test('a re-run goes on only with a run of the same step and the same inputs: another workflow run, another job or other vars start a run of their own', async (t) => {
  const s = await setup(t);
  const first = await s.attempt(1);
  assert.equal(first.code, ExitCode.failed, first.log.join('\n'));
  const runId = first.outputs['run-id'];
  // Another leg of a matrix (other vars), in attempt 2: a run of its own, which sends its writes.
  const leg = await s.attempt(2, { vars: 'release=26.11' });
  assert.notEqual(leg.outputs['run-id'], runId);
  assert.equal(s.sent('/update/vfs'), 2);
  // Another workflow run (a new push): a run of its own.
  const other = await s.attempt(1, {}, { GITHUB_RUN_ID: '7802' });
  assert.equal(other.code, ExitCode.ok, other.log.join('\n'));
  assert.notEqual(other.outputs['run-id'], runId);
  assert.equal(s.sent('/update/vfs'), 3);
});

test("a re-run of a job of a matrix over environments (the same inputs, another server) never goes on with another job's run: its writes are sent", async (t) => {
  const s = await setup(t);
  const prod = await startEmulator(t);
  // The staging job ran; the prod job of the same matrix never reached the step (its approval timed out).
  const staging = await s.attempt(1);
  assert.equal(staging.code, ExitCode.failed, staging.log.join('\n'));
  // Re-run failed jobs: the prod job, its environment's server, attempt 2.
  const rerun = await s.attempt(2, { 'in-doubt': 'skip' }, { ENGINE_URL: prod.url });
  assert.notEqual(rerun.outputs['run-id'], staging.outputs['run-id'], 'a run of its own');
  assert.equal(
    prod.emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/vfs')).length,
    1,
    "prod's vfs update is sent",
  );
});

test('in-doubt and continue-rollout with store: but no journal are refused on a first attempt, where there is nothing to decide yet', async (t) => {
  const s = await setup(t);
  for (const inputs of [{ 'in-doubt': 'verify' }, { 'continue-rollout': 'true' }] as Record<string, string>[]) {
    const r = await s.attempt(1, inputs);
    assert.equal(r.code, ExitCode.invalidInput, JSON.stringify(inputs));
    assert.match(r.failed.join('\n'), /goes with input journal/);
  }
  assert.equal(s.sent('/update/vfs'), 0);
});

test('a re-run that goes on with its earlier run is a resume: a write that run applied and no window fits now is not refused up front', async (t) => {
  // The vfs update goes out on the 9th; from the 10th a freeze holds every window for 400 days and more.
  const clock = simulatedClock(Date.parse('2027-01-09T12:00:00Z'));
  const { url, emulator } = await startEmulator(t, {
    now: clock.now,
    faults: [parseFault('POST /api/devops/v1/transaction-log/clear status=400 times=1')],
  });
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-rerun-')), 'store');
  mkdirSync(store);
  const pipeline = PIPELINE.replace(
    'steps:',
    'freezes:\n  decommission: { zone: UTC, dates: [{ from: 2027-01-10, to: 2028-06-01 }] }\nsteps:',
  );
  const attempt = (n: number) =>
    runActionInProcess(ROOT, {
      files: { 'release.yml': pipeline },
      inputs: { pipeline: 'release.yml', store: `file://${store}` },
      env: {
        ENGINE_URL: url,
        ENGINE_USERNAME: 'admin',
        ENGINE_PASSWORD: 'admin',
        PROD_TOKEN: 'prod-token',
        GITHUB_RUN_ID: '7801',
        GITHUB_JOB: 'deploy',
        GITHUB_ACTION: 'release',
        GITHUB_RUN_ATTEMPT: String(n),
      },
      clock,
    });
  const first = await attempt(1);
  assert.equal(first.code, ExitCode.failed, first.log.join('\n'));
  await clock.sleep(2 * 24 * 3_600_000, new AbortController().signal);
  const second = await attempt(2);
  assert.equal(second.outputs['run-id'], first.outputs['run-id'], second.failed.join('\n'));
  assert.match(second.log.join('\n'), /VFS update prod {2}done in an earlier run/);
  assert.equal(emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/vfs')).length, 1);
});
