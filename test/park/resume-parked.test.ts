// A parked run goes on with --continue, which honours what it waits for (a decision, a bake) and
// what was decided (--abort: nothing more is sent). `run --resume RUN` of that run is no way
// around it: refused, nothing sent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ROLLOUT = `  over: site
  waves: [[site-001], rest]
  on-failure: decide`;

async function parkedOnFailure(t: Parameters<typeof parkFleet>[0]) {
  const f = await parkFleet(t, 3, ROLLOUT);
  // The server refuses site-001's update once (nothing applied): the run parks for a decision.
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', site: 'site-001', status: 400, times: 1 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  assert.match(first.stdout, /^parked: waiting for a decision on wave 1: site-001 failed$/m);
  return { f, id: runIdOf(first.stdout)! };
}

test('run --resume of a run parked for a decision is refused, nothing sent: it goes on with decide, then --continue', async (t) => {
  const { f, id } = await parkedOnFailure(t);
  const resumed = await f.run('--resume', id);
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /RESUME_PARKED/);
  assert.match(resumed.stderr, /--continue/);
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing sent: site-001 waits for the decision, wave 2 for it');
});

test('run --resume of a run the operator aborted is refused, nothing sent', async (t) => {
  const { f, id } = await parkedOnFailure(t);
  const aborted = await f.decide(id, '--abort', '--reason', 'bad release');
  assert.equal(aborted.code, 0, aborted.stdout + aborted.stderr);
  const resumed = await f.run('--resume', id);
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /the operator aborted it .*bad release.*nothing more is sent/);
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing more is sent after --abort');
});

test('park: { keep-lease: true }: a refused run --resume of the parked run leaves the fleet lease kept for its continue', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`,
    'lease: { name: fleet, ttl: 1h }\npark: { keep-lease: true }',
  );
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const resumed = await f.run('--resume', id);
  assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  assert.match(resumed.stderr, /RESUME_PARKED/);
  // Another run of the fleet is still refused: the parked run keeps the lease.
  const other = await f.run();
  assert.equal(other.code, 2, `another run took the fleet lease the parked run kept\n${other.stdout}${other.stderr}`);
  assert.match(other.stderr, /lease fleet is held by/);
});
