// Two continues of one stored run at once (no fleet lease): the second is refused before it reads
// the journal or decides anything in doubt, because the first holds the run's own lease while its
// write is in flight (held at the gateway); the write is applied once. Before the fix, the second
// took the live own lease at once ("from an earlier runner of the same run"), read the first's
// write in flight as in doubt, decided it (verify read it not applied) and sent it again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acquireLease, type LeaseClock } from '../../src/store/lease.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { heldFleet, UPDATE_ENTITY, WRITE } from './held-fleet.ts';
import { PARKED, runIdOf } from './helpers.ts';

const UPDATE = UPDATE_ENTITY;
const ROLLOUT = `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`;

for (const [what, method, inDoubt] of [
  ['its PATCH in flight, the second with --in-doubt verify-and-retry', 'PATCH', ['--in-doubt', 'verify-and-retry']],
  ['its read before the write in flight, the second with no --in-doubt', 'GET', []],
] as const)
  test(`a second --continue while the first has ${what}: refused (JOURNAL_LOCKED), the write applied once`, async (t) => {
    const { f, holdNext } = await heldFleet(t, 3, ROLLOUT, WRITE);
    const first = await f.run();
    assert.equal(first.code, PARKED, first.stdout + first.stderr);
    const id = runIdOf(first.stdout)!;
    const ended = await f.decide(id, '--continue', '--reason', 'end the bake');
    assert.equal(ended.code, 0, ended.stdout + ended.stderr);

    const h = holdNext((m, path) => m === method && path === `/sites/site-002${UPDATE}`);
    const going = f.run('--continue', id);
    await h.reached;
    await f.clock.sleep(90_000, new AbortController().signal);
    const recordsBefore = f.records(id).length;
    const second = await f.run('--continue', id, ...inDoubt);
    assert.equal(second.code, 2, second.stdout + second.stderr);
    assert.match(second.stderr, /JOURNAL_LOCKED/);
    assert.match(second.stderr, /held by another runner of it .*renewed until \S+Z/);
    assert.match(second.stderr, /lapses at \S+Z/);
    assert.doesNotMatch(second.stderr, /run\.\d{8}T/, 'the own lease is no name an operator sees');
    assert.equal(f.records(id).length, recordsBefore, 'the refused continue recorded nothing');
    h.release();
    const done = await going;
    assert.equal(done.code, 0, done.stdout + done.stderr);
    assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
    assert.equal(f.records(id).filter((r) => r.t === 'decision').length, 0, 'no call was decided in doubt');
  });

test('a continue whose hold another runner of the run went on with stops LEASE_LOST saying so: nothing verified its calls, --in-doubt verify checks them', async (t) => {
  const { f, holdNext } = await heldFleet(t, 3, ROLLOUT, WRITE);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const ended = await f.decide(id, '--continue', '--reason', 'end the bake');
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);

  const h = holdNext((m, path) => m === 'PATCH' && path === `/sites/site-002${UPDATE}`);
  const going = f.run('--continue', id);
  await h.reached;
  // Another runner of this run, on a machine whose clock reads the hold lapsed more than its ttl
  // before (5 minutes ahead: more than twice its ttl of 2m, past what a waiter confirms on its
  // clock, store/lapse.ts), goes on with it: the next record of the run's own lease, as its continue writes it.
  const ahead: LeaseClock = { now: () => Date.now() + 5 * 60_000, sleep: async () => undefined };
  const other = await acquireLease(new DirectoryStore(f.storeUrl), `run.${id}`, {
    holder: { runId: id, actor: 'night-job', host: 'runner-9' },
    ttlMs: 2 * 60_000,
    waitMs: 0,
    clock: ahead,
    sameRun: true,
    verifyTakeover: async () => ({
      evidence: [`the same run ${id}, resumed: its calls in doubt are decided by the resume`],
    }),
  });
  assert.equal(other.record.holder.runId, id);
  h.release();
  const done = await going;
  assert.equal(done.code, 1, done.stdout + done.stderr);
  assert.match(
    done.stderr,
    /LEASE_LOST: run \S+'s hold on itself is no longer this run's: another runner of this run \(night-job on runner-9\) went on with it/,
  );
  assert.match(done.stderr, /--in-doubt verify/);
  assert.doesNotMatch(done.stderr, /verified what this one may have sent/);
  assert.doesNotMatch(done.stderr, /lease run\.\d{8}T/, 'the own lease is no name an operator sees');
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1 }, 'nothing more sent once the lease was lost');
});
