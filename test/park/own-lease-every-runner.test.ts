// Every runner of a stored run holds the run's own lease (run.ID), whatever else it holds: the
// first run --store, a continue or a resume, with a fleet lease or without. A second runner of the
// run while the first has its write in flight (held at the gateway) is refused (JOURNAL_LOCKED)
// before it reads the journal or verifies anything, and the write is applied once. Before the fix,
// a runner with a fleet lease, and a first run, held no own lease: the second took it, read the
// first's write in flight as in doubt, verified it not applied and sent it again (applied twice).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { heldFleet, UPDATE_ENTITY, WRITE } from './held-fleet.ts';
import { PARKED, runIdOf } from './helpers.ts';

const UPDATE = UPDATE_ENTITY;
const ROLLOUT = `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`;

/** The second runner refused before it read or recorded anything: the run's journal is in use. */
function refused(second: { code: number | null; stdout: string; stderr: string }) {
  assert.equal(second.code, 2, second.stdout + second.stderr);
  assert.match(second.stderr, /JOURNAL_LOCKED/);
  assert.match(second.stderr, /held by another runner of it/);
  assert.doesNotMatch(second.stdout, /verify: /, 'nothing verified');
}

test('a continue holding the fleet lease (--lease fleet) with its PATCH in flight: a second continue without --lease is refused (JOURNAL_LOCKED), the write applied once', async (t) => {
  const { f, holdNext } = await heldFleet(t, 3, ROLLOUT, WRITE);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const ended = await f.decide(id, '--continue', '--reason', 'end the bake');
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);

  const h = holdNext((m, path) => m === 'PATCH' && path === `/sites/site-002${UPDATE}`);
  const going = f.run('--continue', id, '--lease', 'fleet');
  await h.reached;
  await f.clock.sleep(90_000, new AbortController().signal);
  const recordsBefore = f.records(id).length;
  const second = await f.run('--continue', id, '--in-doubt', 'verify-and-retry');
  const recordsAfter = f.records(id).length;
  h.release();
  const done = await going;
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 }, 'each site applied once');
  refused(second);
  assert.equal(recordsAfter, recordsBefore, 'the refused continue recorded nothing');
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.equal(f.records(id).filter((r) => r.t === 'decision').length, 0, 'no call was decided in doubt');
});

test('the first run --store (no lease) with its PATCH in flight: a --resume of it with --in-doubt verify-and-retry is refused (JOURNAL_LOCKED), the write applied once', async (t) => {
  const { f, holdNext } = await heldFleet(t, 3, ROLLOUT, WRITE);
  const h = holdNext((m, path) => m === 'PATCH' && path === `/sites/site-001${UPDATE}`);
  const going = f.run();
  await h.reached;
  const id = readdirSync(fileURLToPath(f.storeUrl) + '/runs')[0]!;
  await f.clock.sleep(90_000, new AbortController().signal);
  const recordsBefore = f.records(id).length;
  const second = await f.run('--resume', id, '--in-doubt', 'verify-and-retry');
  const recordsAfter = f.records(id).length;
  h.release();
  const done = await going;
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1 }, 'site-001 applied once');
  refused(second);
  assert.equal(recordsAfter, recordsBefore, 'the refused resume recorded nothing');
  assert.equal(done.code, PARKED, done.stdout + done.stderr);
  assert.equal(f.records(id).filter((r) => r.t === 'decision').length, 0, 'no call was decided in doubt');
  // Parked: the own lease released, so the run goes on once decided.
  const ended = await f.decide(id, '--continue', '--reason', 'end the bake');
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);
  const rest = await f.run('--continue', id);
  assert.equal(rest.code, 0, rest.stdout + rest.stderr);
  assert.deepEqual(f.applied(UPDATE), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});
