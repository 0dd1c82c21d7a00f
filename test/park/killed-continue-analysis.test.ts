// A continue killed (SIGKILL) mid-rollout, modelled by cutting its records from the store's journal
// after a given one (a write-ahead journal: a killed runner leaves a prefix of its records). Before,
// the next continue went back to the bake after wave 1, counted from then, while its report showed
// waves 2 and 3 done: the analyses that passed were read from the last run's rollout record only,
// which a killed run never writes. They are read from the run that parked where it went on from.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { killAfter, PARKED, parkFleet, runIdOf } from './helpers.ts';

const HOUR = 3_600_000;
const never = new AbortController().signal;

test('a continue killed after its last wave wrote: the next continue does not go back to the bake after wave 1', async (t) => {
  const f = await parkFleet(t, 3, '  over: site\n  waves: [[site-001], [site-002], rest]\n  analysis: { bake: 1h }');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  await f.clock.sleep(HOUR + 60_000, never);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  assert.equal(second.report!.parked?.wave, 2);
  await f.clock.sleep(HOUR + 60_000, never);
  const third = await f.run('--continue', id);
  assert.equal(third.code, 0, third.stdout + third.stderr);
  // SIGKILL right after site-003's update ended: its rollout and finish records never written.
  const cut = killAfter(
    join(f.dir, 'store'),
    id,
    (r) => r.t === 'end' && String(r.key).includes('site-003') && String(r.key).startsWith('id:update'),
  );
  t.diagnostic(`cut: ${cut.join(', ')}`);
  await f.clock.sleep(3 * 60_000, never); // the killed runner's own lease (2m) lapses
  const fourth = await f.run('--continue', id);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
  assert.equal(
    fourth.report?.parked?.reason ?? null,
    null,
    `went back to a bake the run was past:\n${fourth.stdout}\n${fourth.stderr}`,
  );
  assert.equal(fourth.code, 0, fourth.stdout + fourth.stderr);
});
