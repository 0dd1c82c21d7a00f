// A wave that writes again bakes again: a value of a wave parked for its bake, retried on the
// operator's word (decide --retry, then --continue), is baked from that write's end before the next
// wave, as an analysis carried from an earlier run is dropped when a write of its wave runs again.
// Before, the bake's start stayed the first park's: 13 h after it, the retried update of site-002
// was followed milliseconds later by wave 2.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const HOUR = 3_600_000;
const never = new AbortController().signal;

test('parked for the 12h bake with site-002 in doubt (not applied), decide --retry 13h later: the continue sends it and parks for a new 12h bake from its end; wave 2 only after that', async (t) => {
  const f = await parkFleet(
    t,
    3,
    '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 1\n  analysis: { bake: 12h }',
  );
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    reset: 'before',
    times: 1,
    site: 'site-002',
  });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  await f.clock.sleep(13 * HOUR, never);
  const r = await f.decide(id, '--retry', 'site-002', '--accept-cannot-tell', '--reason', 'checked: not updated');
  assert.equal(r.code, 0, r.stdout + r.stderr);

  const retried = await f.run('--continue', id);
  assert.equal(retried.code, PARKED, `site-002 was just updated: its wave bakes again\n${retried.stdout}`);
  assert.match(retried.stdout, /^parked: waiting for the 12h bake after wave 1$/m);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1 }, 'wave 2 not sent');
  const since = Date.parse(retried.report!.parked!.since);
  assert.ok(
    since >= f.clock.now() - 60_000,
    `the bake counts from the retried write: since ${retried.report!.parked!.since}`,
  );

  await f.clock.sleep(11 * HOUR, never);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, early.stdout + early.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1 }, 'an hour of the new bake left');

  await f.clock.sleep(2 * HOUR, never);
  const done = await f.run('--continue', id);
  assert.notEqual(done.code, PARKED, done.stdout + done.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});
