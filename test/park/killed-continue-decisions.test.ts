// The operator's words about a run whose continue was killed (its records cut after a given one,
// what SIGKILL leaves of a journal written ahead), judged in the journal's order:
// - a retry said again after the continue that acted on the first one was killed is acted on
//   (before, it was judged by the park it stood at, before the write's last start: "acted on");
// - a timed continue a run went on on stays in force when the operator decides about a value
//   after it (before, the later word voided it, and the next continue baked the wave it had gone past).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { killAfter, PARKED, parkedOnRefusal } from './helpers.ts';

const HOUR = 3_600_000;
const never = new AbortController().signal;
const isUpdateEnd = (site: string) => (r: Record<string, unknown>) =>
  r.t === 'end' && String(r.key).startsWith('id:update') && String(r.key).includes(site);

test('decide --retry, the continue that acts on it fails again and is killed, decide --retry again: the next continue sends it once more', async (t) => {
  const { f, id } = await parkedOnRefusal(
    t,
    '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 0\n  on-failure: decide',
    'site-002',
    2,
  );
  assert.equal((await f.decide(id, '--retry', 'site-002', '--reason', 'transient')).code, 0);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  killAfter(join(f.dir, 'store'), id, isUpdateEnd('site-002'));
  await f.clock.sleep(3 * 60_000, never); // the killed runner's own lease lapses
  const again = await f.decide(id, '--retry', 'site-002', '--reason', 'fixed now');
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const third = await f.run('--continue', id);
  assert.equal(third.code, 0, third.stdout + third.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

test('a timed continue a run went on on, then killed: a retry decided after it leaves the wave gone past (no bake again)', async (t) => {
  const { f, id } = await parkedOnRefusal(
    t,
    '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 0\n  on-failure: decide\n  analysis: { bake: 12h }',
    'site-002',
    1,
  );
  assert.equal((await f.decide(id, '--after', '4h', '--then', 'continue', '--reason', 'default')).code, 0);
  await f.clock.sleep(5 * HOUR, never);
  const second = await f.run('--continue', id);
  assert.equal(second.code, 1, `went past wave 1 on the timed continue:\n${second.stdout}${second.stderr}`);
  killAfter(join(f.dir, 'store'), id, isUpdateEnd('site-003'));
  await f.clock.sleep(3 * 60_000, never);
  const retry = await f.decide(id, '--retry', 'site-002', '--reason', 'try it after all');
  assert.equal(retry.code, 0, retry.stdout + retry.stderr);
  const third = await f.run('--continue', id);
  assert.notEqual(third.code, PARKED, `baked wave 1 again:\n${third.stdout}${third.stderr}`);
  assert.equal(f.applied('/update/system')['site-003'], 1, 'site-003 not sent again');
});

test('two continues killed, a timed continue said between them and acted on by the second: a later word leaves the wave gone past', async (t) => {
  const { f, id } = await parkedOnRefusal(
    t,
    '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 0\n  on-failure: decide\n  analysis: { bake: 12h }',
    'site-002',
    2,
  );
  assert.equal((await f.decide(id, '--retry', 'site-002', '--reason', 'transient')).code, 0);
  await f.run('--continue', id);
  killAfter(join(f.dir, 'store'), id, isUpdateEnd('site-002'));
  await f.clock.sleep(3 * 60_000, never);
  assert.equal((await f.decide(id, '--after', '1h', '--then', 'continue', '--reason', 'default')).code, 0);
  await f.clock.sleep(2 * HOUR, never);
  const third = await f.run('--continue', id);
  assert.notEqual(third.code, PARKED, `went past wave 1 on the timed continue:\n${third.stdout}${third.stderr}`);
  killAfter(join(f.dir, 'store'), id, isUpdateEnd('site-003'));
  await f.clock.sleep(3 * 60_000, never);
  assert.equal((await f.decide(id, '--skip', 'site-002', '--reason', 'leave it')).code, 0);
  const fourth = await f.run('--continue', id);
  assert.notEqual(fourth.code, PARKED, `baked wave 1 again:\n${fourth.stdout}${fourth.stderr}`);
  assert.equal(f.applied('/update/system')['site-003'], 1, 'site-003 not sent again');
});
