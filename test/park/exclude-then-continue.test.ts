// decide --exclude at a budget of 0: the wave parks again past its budget (the exclude counts against
// it), and the operator says --continue there. The wave's continue goes past the failures it waited
// on, the excluded one too: its values not started yet run under the wave's budget. Before, the
// excluded value was still counted, so every continue parked again on the same wait, for ever.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARKED, parkedOnRefusal } from './helpers.ts';

test('exclude site-001 (budget 0), parked again past the budget, decide --continue: site-002 of the same wave runs, the run does not park for the same thing again', async (t) => {
  const { f, id } = await parkedOnRefusal(
    t,
    '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 0\n  on-failure: decide',
    'site-001',
    1,
  );
  assert.equal((await f.decide(id, '--exclude', 'site-001', '--reason', 'rebuilt')).code, 0);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  t.diagnostic(`second parked: ${second.report!.parked?.reason}`);
  assert.equal((await f.decide(id, '--continue', '--reason', 'go on')).code, 0);
  let third = await f.run('--continue', id);
  const walk = [`${third.code} ${third.report!.parked?.reason ?? 'ended'}`];
  for (let i = 0; i < 2 && third.code === PARKED; i++) {
    assert.equal((await f.decide(id, '--continue', '--reason', `go on, again ${i}`)).code, 0);
    third = await f.run('--continue', id);
    walk.push(`${third.code} ${third.report!.parked?.reason ?? 'ended'}`);
  }
  t.diagnostic(`after each decide --continue: ${walk.join(' | ')}`);
  assert.equal(f.applied('/update/system')['site-001'], undefined);
  assert.equal(f.applied('/update/system')['site-002'], 1, 'site-002 ran after the continue');
  assert.notEqual(third.code, PARKED);
});

test("--retry site-001, then the wave's --continue at the same park: site-001's second failure is a failure after the continue and meets the budget (parked again, site-002 not started)", async (t) => {
  const { f, id } = await parkedOnRefusal(
    t,
    '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 0\n  on-failure: decide',
    'site-001',
    2,
  );
  assert.equal((await f.decide(id, '--retry', 'site-001', '--reason', 'transient')).code, 0);
  const go = await f.decide(id, '--continue', '--reason', 'and go on');
  assert.equal(go.code, 0, go.stdout + go.stderr);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  assert.match(second.report!.parked!.reason, /site-001/);
  assert.equal(f.applied('/update/system')['site-002'], undefined, 'site-002 not started past the spent budget');
});
