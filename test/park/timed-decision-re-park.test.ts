// A decision with a timeout (decide --after 4h --then abort|continue) is made at a park; a continue
// before its time (a scheduled job every hour, or an operator early) finds nothing due and parks the
// run again, a new park of the same wait. Before, the timed decision stood at the first park only:
// the continue after its time read the new park's decisions (none), so the timed abort never ended
// the run and the timed continue never ended the bake; decide and runs --parked stopped showing it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { PARKED, parkFleet, parkedOnRefusal, runIdOf } from './helpers.ts';
import { nightly } from './nightly.ts';

const HOUR = 3_600_000;
const never = new AbortController().signal;

test('decide --after 4h --then abort, a continue an hour later parks again: the continue 5h after is refused (aborted), nothing more sent', async (t) => {
  const rollout = '  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide';
  const { f, id } = await parkedOnRefusal(t, rollout, 'site-002', 1);
  assert.equal((await f.decide(id, '--after', '4h', '--then', 'abort', '--reason', 'nobody looked')).code, 0);
  await f.clock.sleep(HOUR, never);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, `nothing decided yet: parked again\n${early.stdout}${early.stderr}`);
  const listed = await f.decide(id);
  assert.match(listed.stdout, /decided with a timeout: abort at /, `the timeout still stands:\n${listed.stdout}`);
  await f.clock.sleep(4 * HOUR, never);
  const late = await f.run('--continue', id);
  assert.equal(late.code, 2, `the timed abort is in force:\n${late.stdout}${late.stderr}`);
  assert.match(late.stderr, /aborted/);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'nothing sent after the park');
});

test('decide --after 4h --then continue at a 12h bake, a continue an hour later parks again: the continue 5h after goes on past the bake', async (t) => {
  const f = await parkFleet(t, 3, '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.equal((await f.decide(id, '--after', '4h', '--then', 'continue', '--reason', 'cut the bake')).code, 0);
  await f.clock.sleep(HOUR, never);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, `the bake and the timeout are not over:\n${early.stdout}${early.stderr}`);
  await f.clock.sleep(4 * HOUR, never);
  const parked = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.match(parked.stdout, new RegExp(`^${id}\\b`, 'm'));
  const late = await f.run('--continue', id);
  assert.equal(late.code, 0, `the timed continue ends the bake:\n${late.stdout}${late.stderr}`);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

test('decide --after 4h --then abort at a 12h bake, a continue an hour later parks again: the continue 13h after is refused (aborted), wave 2 never sent', async (t) => {
  const f = await parkFleet(t, 3, '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.equal((await f.decide(id, '--after', '4h', '--then', 'abort', '--reason', 'nobody looked')).code, 0);
  await f.clock.sleep(HOUR, never);
  assert.equal((await f.run('--continue', id)).code, PARKED);
  const listed = await f.decide(id);
  assert.match(listed.stdout, /decided with a timeout: abort at /, `the timeout still stands:\n${listed.stdout}`);
  await f.clock.sleep(12 * HOUR, never);
  const late = await f.run('--continue', id);
  assert.equal(late.code, 2, `the timed abort is in force:\n${late.stdout}${late.stderr}`);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'wave 2 is not sent');
});

test('decide --retry site-002 and --after 4h --then continue, a continue an hour later sends the retry, refused again (a new failure at a new park): the continue after 5h parks for a decision on it, wave 2 not sent', async (t) => {
  const rollout = '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 0\n  on-failure: decide';
  const { f, id } = await parkedOnRefusal(t, rollout, 'site-002', 2);
  assert.equal((await f.decide(id, '--retry', 'site-002')).code, 0);
  assert.equal(
    (await f.decide(id, '--after', '4h', '--then', 'continue', '--reason', 'go on if nobody looks')).code,
    0,
  );
  await f.clock.sleep(HOUR, never);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, `the retry is refused again: parked\n${early.stdout}${early.stderr}`);
  await f.clock.sleep(4 * HOUR, never);
  const late = await f.run('--continue', id);
  assert.equal(late.code, PARKED, `the second refusal was never decided on:\n${late.stdout}${late.stderr}`);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'wave 2 is not sent');
});

test('a bake that also waited on a value in doubt: --skip it, then --after 4h --then continue; a continue an hour later parks again on the bake alone: the continue 5h after ends the bake', async (t) => {
  const f = await parkFleet(
    t,
    3,
    '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 1\n  analysis: { bake: 12h }',
  );
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    reset: 'after',
    times: 1,
    site: 'site-002',
  });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.deepEqual(
    first.report!.parked!.waits.map((w) => w.value),
    [null, 'site-002'],
  );
  assert.equal((await f.decide(id, '--skip', 'site-002', '--reason', 'the engine shows it')).code, 0);
  assert.equal((await f.decide(id, '--after', '4h', '--then', 'continue', '--reason', 'cut the bake')).code, 0);
  await f.clock.sleep(HOUR, never);
  assert.equal((await f.run('--continue', id)).code, PARKED);
  await f.clock.sleep(4 * HOUR, never);
  const late = await f.run('--continue', id);
  assert.equal(late.code, 0, `the timed continue ends the bake:\n${late.stdout}${late.stderr}`);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
});

for (const [how, names] of [
  ['', undefined],
  [' of the same name', { short: 'clear the log', long: 'clear the log' }],
] as const)
  test(`a timed abort said at one write's window park is not carried to another write's${how}: the run went on before it, and the next night's continue sends the long write`, async (t) => {
    const f = await nightly(t, '2026-03-10T01:00:00Z', names);
    const first = await f.run();
    assert.equal(first.code, PARKED, first.stdout + first.stderr);
    const id = runIdOf(first.stdout)!;
    const decide = ['decide', '--store', f.storeUrl, '--run', id];
    const timed = await runCli([...decide, '--after', '3h', '--then', 'abort', '--reason', 'if not gone on by 04:00'], {
      clock: f.clock,
    });
    assert.equal(timed.code, 0, timed.stdout + timed.stderr);
    await f.clock.sleep(Date.parse('2026-03-10T03:55:00Z') - f.clock.now(), never);
    const went = await f.run('--continue', id);
    assert.equal(went.code, PARKED, `short sent, parked for long's window:\n${went.stdout}${went.stderr}`);
    assert.equal(f.clears(), 1);
    await f.clock.sleep(Date.parse('2026-03-11T02:01:00Z') - f.clock.now(), never);
    const next = await f.run('--continue', id);
    assert.equal(next.code, 0, `not aborted: the run went on before the timeout\n${next.stdout}${next.stderr}`);
    assert.equal(f.clears(), 2);
  });

test('a timed abort said at a write’s window park holds when a continue inside the window parks it again for a later night (the write would overrun): the night after, the run is aborted', async (t) => {
  const f = await nightly(t, '2026-03-10T05:00:00Z');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const decide = ['decide', '--store', f.storeUrl, '--run', id];
  const timed = await runCli([...decide, '--after', '24h', '--then', 'abort', '--reason', 'if not done by then'], {
    clock: f.clock,
  });
  assert.equal(timed.code, 0, timed.stdout + timed.stderr);
  await f.clock.sleep(Date.parse('2026-03-11T04:30:00Z') - f.clock.now(), never);
  const late = await f.run('--continue', id);
  assert.equal(late.code, PARKED, `long would overrun: parked for the next night\n${late.stdout}${late.stderr}`);
  await f.clock.sleep(Date.parse('2026-03-12T02:01:00Z') - f.clock.now(), never);
  const next = await f.run('--continue', id);
  assert.equal(
    next.code,
    2,
    `the timed abort holds: the same write waited on time alone\n${next.stdout}${next.stderr}`,
  );
  assert.equal(f.clears(), 1, 'long never sent');
});

test('a continue before a timed decision is due, at a park that waits for a decision: still parked, and it says the timed decision is coming (as decide and runs --parked do)', async (t) => {
  const rollout = '  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide';
  const { f, id } = await parkedOnRefusal(t, rollout, 'site-002', 1);
  assert.equal(
    (await f.decide(id, '--after', '4h', '--then', 'continue', '--reason', 'go on if nobody looks')).code,
    0,
  );
  await f.clock.sleep(HOUR, never);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, early.stdout + early.stderr);
  assert.match(early.stdout, /still parked: /);
  assert.match(early.stdout, /decided with a timeout: continue at \S+ unless decided before/);
});
