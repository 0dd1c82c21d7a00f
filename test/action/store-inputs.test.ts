// A run's state outlives its machine, through the action: the root action run in this process
// (runAction, with a recording toolkit) against the emulator, with a run store on a real directory
// (file:///...). Input store (or ENGINECTL_STORE) keeps the journal in the store and sets the
// run-id output; enginectl report reads the run back from the store alone; journal: RUN_ID resumes
// it on another runner; input lease takes the fleet lease (refused without a store, and refused
// while another run holds it when the run does not wait).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { startDeploymentsGitHub } from '../helpers/action.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, type InProcessAction } from '../helpers/toolkit.ts';
import { until } from '../helpers/timing.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, type LeaseClock } from '../../src/store/lease.ts';

const ROOT = actionDef('enginectl');
const VFS = '/api/devops/v1/update/vfs';

const PIPELINE = `version: 1
name: Stored release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: clear
    uses: transaction-log/clear
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

async function setup(t: TestContext) {
  const { url, emulator } = await startEmulator(t);
  const store = join(mkdtempSync(join(tmpdir(), 'enginectl-action-store-')), 'store');
  mkdirSync(store);
  const storeUrl = `file://${store}`;
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  /** The root action on a runner of its own (a fresh workspace and RUNNER_TEMP each time). */
  const run = (inputs: Record<string, string>, more: Omit<InProcessAction, 'inputs'> = {}) =>
    runActionInProcess(ROOT, {
      files: { 'release.yml': PIPELINE },
      ...more,
      inputs: { pipeline: 'release.yml', ...inputs },
      env: { ...env, ...more.env },
    });
  const applied = (suffix: string) => emulator.requests.filter((r) => r.applied && r.path.endsWith(suffix)).length;
  return { emulator, store, storeUrl, run, applied };
}

/** The steps of a run as `enginectl report --store URL --run ID` renders them from the store. */
async function reportedSteps(storeUrl: string, runId: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-report-')), 'r.json');
  const r = await runCli(['report', '--store', storeUrl, '--run', runId, '--report-json', file]);
  const steps = (JSON.parse(readFileSync(file, 'utf8')) as { steps: { id: string; outcome: string }[] }).steps;
  return { code: r.code, steps: steps.map((s) => [s.id, s.outcome]) };
}

test('input store: the run-id output names the run, and enginectl report reads the run from the store alone', async (t) => {
  const s = await setup(t);
  const run = await s.run({ store: s.storeUrl });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  const id = run.outputs['run-id'];
  assert.match(id ?? '', /^\S+$/, 'the run-id output is set');
  assert.ok(existsSync(run.outputs.journal!), "the journal output is the runner's copy of the journal");
  const reported = await reportedSteps(s.storeUrl, id!);
  assert.equal(reported.code, 0);
  assert.deepEqual(reported.steps, [
    ['clear', 'success'],
    ['vfs', 'success'],
  ]);
});

test('ENGINECTL_STORE is the store when input store is empty; without either, run-id is set and empty', async (t) => {
  const s = await setup(t);
  const stored = await s.run({}, { env: { ENGINECTL_STORE: s.storeUrl } });
  assert.equal(stored.code, ExitCode.ok, stored.failed.join('\n'));
  const id = stored.outputs['run-id'];
  assert.ok(id, 'run-id set from ENGINECTL_STORE');
  const listed = await runCli(['runs', '--store', s.storeUrl]);
  assert.match(listed.stdout, new RegExp(`^${id}  .*"Stored release".*  success$`, 'm'));

  const plain = await s.run({});
  assert.equal(plain.code, ExitCode.ok, plain.failed.join('\n'));
  assert.equal(plain.outputs['run-id'], '', 'every documented output is set: run-id empty without a store');
  assert.ok(plain.outputs.journal, 'the journal is a local file instead');
});

test('input lease without a store: refused as bad input (exit 2) naming input store, before any call', async (t) => {
  const s = await setup(t);
  const run = await s.run({ lease: 'prod-fleet' });
  assert.equal(run.code, ExitCode.invalidInput);
  assert.match(
    run.failed.join('\n'),
    /the lease prod-fleet lives in a run store: set input store \(or ENGINECTL_STORE\)/,
  );
  assert.equal(run.outputs.outcome, 'failure');
  assert.deepEqual(s.emulator.requests, [], 'nothing was sent');
});

test('input lease: a second run while the first holds the lease is refused (exit 2) and sends nothing; once the first ends, the lease is free', async (t) => {
  const s = await setup(t);
  // The first run holds the lease while its update hangs, until it is cancelled.
  s.emulator.faults.add({ method: 'POST', path: VFS, hang: true, times: 1 });
  const cancel = new AbortController();
  const first = s.run({ store: s.storeUrl, lease: 'prod-fleet' }, { signal: cancel.signal });
  await until(() => s.emulator.count('POST', VFS) === 1);
  const sentBefore = s.emulator.requests.length;

  const second = await s.run({ store: s.storeUrl, lease: 'prod-fleet' });
  assert.equal(second.code, ExitCode.invalidInput, second.failed.join('\n'));
  assert.match(second.failed.join('\n'), /lease prod-fleet is held by .*this run does not wait \(wait: 0s\)/);
  assert.equal(s.emulator.requests.length, sentBefore, 'the second run sent nothing');

  cancel.abort();
  const ended = await first;
  assert.equal(ended.code, ExitCode.interrupted);
  const third = await s.run({ store: s.storeUrl, lease: 'prod-fleet' });
  assert.equal(third.code, ExitCode.ok, third.failed.join('\n'));
  assert.equal(s.applied('/update/vfs'), 1, "the third run's update");
});

test('input webhook that is not a URL, with a store and a lease: refused (exit 2) before the lease is taken; the next run takes it at once', async (t) => {
  const s = await setup(t);
  const refused = await s.run({ store: s.storeUrl, lease: 'prod-fleet', webhook: 'not a url' });
  assert.equal(refused.code, ExitCode.invalidInput, refused.failed.join('\n'));
  assert.match(refused.failed.join('\n'), /input webhook/);
  assert.equal(s.emulator.requests.length, 0, 'nothing sent');
  const next = await s.run({ store: s.storeUrl, lease: 'prod-fleet' });
  assert.equal(next.code, ExitCode.ok, next.failed.join('\n'));
});

test('input journal names a run of the store: resumed on another runner, nothing applied sent again', async (t) => {
  const s = await setup(t);
  // The update is applied, and its answer is lost: the write is in doubt.
  s.emulator.faults.add({ method: 'POST', path: VFS, reset: 'after', times: 1 });
  const first = await s.run({ store: s.storeUrl });
  assert.equal(first.code, ExitCode.failed);
  const id = first.outputs['run-id']!;
  assert.deepEqual((await reportedSteps(s.storeUrl, id)).steps, [
    ['clear', 'success'],
    ['vfs', 'failure'],
  ]);

  // Another runner: a fresh workspace and RUNNER_TEMP; the store and the run id are all it has.
  const refused = await s.run({ store: s.storeUrl, journal: id });
  assert.equal(refused.code, ExitCode.invalidInput);
  assert.match(refused.failed.join('\n'), /in doubt: "VFS update prod"/);
  // What to do, in the action's inputs: the CLI's --in-doubt is no input of it.
  assert.match(refused.log.join('\n'), /hint: check on the server, then resume with in-doubt: skip \(it was applied/);
  assert.doesNotMatch(refused.log.join('\n') + refused.summary, /--in-doubt/);
  const resumed = await s.run({ store: s.storeUrl, journal: id, 'in-doubt': 'skip' });
  assert.equal(resumed.code, ExitCode.ok, resumed.failed.join('\n'));
  assert.equal(resumed.outputs['run-id'], id, 'the same run, resumed');
  assert.deepEqual([s.applied('/transaction-log/clear'), s.applied('/update/vfs')], [1, 1], 'nothing sent again');
  // The store's journal has the decision: the update taken as applied, not sent again.
  const after = await reportedSteps(s.storeUrl, id);
  assert.equal(after.code, 0);
  assert.deepEqual(after.steps, [
    ['clear', 'success'],
    ['vfs', 'skipped'],
  ]);
});

test("a store that cannot be written as the run opens it: exit 1, nothing sent, and the summary says the run did not start (STORE_FAILED), not 'invalid input'", async (t) => {
  const s = await setup(t);
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-action-store-')), 'a-file');
  writeFileSync(file, 'not a directory');
  const run = await s.run({ store: `file://${file}` });
  assert.equal(run.code, ExitCode.failed, run.failed.join('\n'));
  assert.equal(s.emulator.requests.length, 0, 'nothing sent');
  assert.match(run.summary, /^## ❌ enginectl: not run \(STORE_FAILED\)$/m);
  assert.doesNotMatch(run.summary, /invalid input/);
  assert.equal(run.outputs.outcome, 'failure');
});

test("a job cancelled while it waits for the fleet lease ends cancelled (exit 130, outcome cancelled), saying it was waiting, not an 'internal error'", async (t) => {
  const s = await setup(t);
  const files = { 'release.yml': PIPELINE.replace('targets:', 'lease: { name: prod-fleet, wait: 1h }\ntargets:') };
  // The first run holds the lease while its update hangs, until it is cancelled.
  s.emulator.faults.add({ method: 'POST', path: VFS, hang: true, times: 1 });
  const cancelFirst = new AbortController();
  const first = s.run({ store: s.storeUrl }, { files, signal: cancelFirst.signal });
  await until(() => s.emulator.count('POST', VFS) === 1);
  const cancel = new AbortController();
  const second = s.run({ store: s.storeUrl }, { files, signal: cancel.signal });
  // Its ticket in the lease's queue: it waits.
  await until(() => existsSync(join(s.store, 'leases', 'prod-fleet', 'queue')));
  cancel.abort();
  const waited = await second;
  assert.equal(waited.code, ExitCode.interrupted, waited.failed.join('\n'));
  assert.equal(waited.outputs.outcome, 'cancelled');
  assert.match(waited.failed.join('\n'), /^waiting for the lease prod-fleet was interrupted.*; nothing was sent$/);
  assert.doesNotMatch(waited.summary, /internal error/);
  cancelFirst.abort();
  assert.equal((await first).code, ExitCode.interrupted);
});

test('journal: RUN_ID ends the Deployment of the job it resumes (a write left in doubt failed it), not a new one', async (t) => {
  const s = await setup(t);
  const github = await startDeploymentsGitHub(t);
  const deployed = { 'deployment-environment': 'production' };
  s.emulator.faults.add({ method: 'POST', path: VFS, reset: 'after', times: 1 });
  const first = await s.run({ store: s.storeUrl, ...deployed }, { githubApi: github.url });
  assert.equal(first.code, ExitCode.failed);
  const resumed = await s.run(
    { store: s.storeUrl, journal: first.outputs['run-id']!, 'in-doubt': 'skip', ...deployed },
    { githubApi: github.url },
  );
  assert.equal(resumed.code, ExitCode.ok, resumed.failed.join('\n'));
  assert.deepEqual(
    github.deployments.map((d) => [d.id, d.states]),
    [[100, ['in_progress', 'failure', 'in_progress', 'success']]],
  );
});

test("journal: RUN_ID whose Deployment is not among the environment's newest GitHub lists says so: the earlier one is left as it was, a new one recorded", async (t) => {
  const s = await setup(t);
  const github = await startDeploymentsGitHub(t);
  const deployed = { 'deployment-environment': 'production' };
  s.emulator.faults.add({ method: 'POST', path: VFS, reset: 'after', times: 1 });
  const first = await s.run({ store: s.storeUrl, ...deployed }, { githubApi: github.url });
  assert.equal(first.code, ExitCode.failed);
  // A busy environment: a thousand Deployments of other runs since.
  for (let i = 0; i < 1000; i++)
    github.deployments.push({ id: 10_000 + i, environment: 'production', payload: {}, states: ['success'] });
  const resumed = await s.run(
    { store: s.storeUrl, journal: first.outputs['run-id']!, 'in-doubt': 'skip', ...deployed },
    { githubApi: github.url },
  );
  assert.equal(resumed.code, ExitCode.ok, resumed.failed.join('\n'));
  assert.deepEqual(github.deployments[0]!.states, ['in_progress', 'failure'], 'the first job ended its own');
  const made = github.deployments.at(-1)!;
  assert.deepEqual(made.states, ['in_progress', 'success']);
  const said = resumed.warnings.map((w) => w.message).join('\n');
  assert.match(
    said,
    new RegExp(
      `deployment-environment: the Deployment of run ${first.outputs['run-id']} is not among the 1000 newest of environment production: a new one is recorded \\(${made.id}\\); one it had before is left as it was`,
    ),
    said,
  );
});

test('input in-doubt verify that cannot settle the call: refused, nothing sent, the way on in the action inputs', async (t) => {
  const s = await setup(t);
  // The update is dropped before the server handles it: in doubt, and not applied.
  s.emulator.faults.add({ method: 'POST', path: VFS, reset: 'before', times: 1 });
  const first = await s.run({ store: s.storeUrl });
  assert.equal(first.code, ExitCode.failed, first.failed.join('\n'));
  const id = first.outputs['run-id']!;
  const sent = s.emulator.requests.filter((r) => r.path.endsWith(VFS)).length;

  const refused = await s.run({ store: s.storeUrl, journal: id, 'in-doubt': 'verify' });
  assert.equal(refused.code, ExitCode.invalidInput, refused.log.join('\n'));
  assert.match(refused.failed.join('\n'), /verify could not settle an in-doubt call: "VFS update prod"/);
  assert.equal(s.emulator.requests.filter((r) => r.path.endsWith(VFS)).length, sent, 'nothing sent again');
  // What to do, in the action's inputs: the CLI's --in-doubt is no input of it.
  assert.match(refused.log.join('\n'), /hint: .*resume with in-doubt: /);
  assert.doesNotMatch(refused.log.join('\n') + refused.summary, /--in-doubt/);
});

test('input journal of a run whose pipeline file changed since: refused, nothing sent, the hint names no --force the action has no input of', async (t) => {
  const s = await setup(t);
  s.emulator.faults.add({ method: 'POST', path: VFS, status: 400, times: 1 });
  const first = await s.run({ store: s.storeUrl });
  assert.equal(first.code, ExitCode.failed, first.failed.join('\n'));
  const id = first.outputs['run-id']!;
  const sent = s.emulator.requests.length;

  const changed = PIPELINE.replace('files: [1001]', 'files: [1002]');
  const refused = await s.run({ store: s.storeUrl, journal: id }, { files: { 'release.yml': changed } });
  assert.equal(refused.code, ExitCode.invalidInput, refused.log.join('\n'));
  assert.match(refused.failed.join('\n'), /cannot resume: .*changed/);
  assert.equal(s.emulator.requests.length, sent, 'nothing sent');
  assert.match(refused.log.join('\n'), /hint: resume the same files with the same vars, only and skip inputs/);
  assert.doesNotMatch(refused.log.join('\n') + refused.summary, /--force|--var|--only|--skip/);
});

test('input lease that expired in the hands of a run with a call verify cannot tell: refused, and the hint names no --take-over the action has no input of', async (t) => {
  const s = await setup(t);
  // The holder's update is applied, its answer lost: in doubt, and an update/vfs cannot be verified.
  s.emulator.faults.add({ method: 'POST', path: VFS, reset: 'after', times: 1 });
  const first = await s.run({ store: s.storeUrl });
  assert.equal(first.code, ExitCode.failed, first.failed.join('\n'));
  const id = first.outputs['run-id']!;
  const hourAgo: LeaseClock = { now: () => Date.now() - 3_600_000, sleep: async () => undefined };
  await acquireLease(new DirectoryStore(s.storeUrl), 'prod-fleet', {
    holder: { runId: id, actor: 'night-job', host: 'runner-7' },
    ttlMs: 60_000,
    waitMs: 0,
    clock: hourAgo,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const writes = () => s.emulator.requests.filter((r) => r.method !== 'GET').length;
  const sent = writes();
  const refused = await s.run({ store: s.storeUrl, lease: 'prod-fleet' });
  assert.equal(refused.code, ExitCode.invalidInput, refused.log.join('\n'));
  assert.match(refused.failed.join('\n'), /expired in the hands of run .*verify cannot tell/);
  assert.equal(writes(), sent, 'no write sent');
  assert.doesNotMatch(refused.log.join('\n') + refused.summary, /--take-over|--reason/);
  assert.match(
    refused.log.join('\n'),
    new RegExp(`hint: check each on the server; then resume run ${id} itself \\(journal: ${id}`),
  );
  // That way on works: the run itself, resumed, takes its lease and decides its call.
  const resumed = await s.run({ store: s.storeUrl, lease: 'prod-fleet', journal: id, 'in-doubt': 'skip' });
  assert.equal(resumed.code, ExitCode.ok, resumed.log.join('\n'));
  assert.equal(writes(), sent, 'the call taken as applied is not sent again');
});
