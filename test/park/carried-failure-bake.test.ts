// A wave that failed within its budget and baked: a continue after a later park carries its
// failure (nothing of it sent again), so the analysis it passed in an earlier run stands. Before,
// its failure made every continue bake the wave again from the start: a rollout with a bake after
// each wave parked at wave 1 again on each continue, and never got past wave 2.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const HOUR = 3_600_000;
const never = new AbortController().signal;

test("a wave that failed within its budget keeps the analysis it passed: a continue after the next wave's bake goes on to the last wave, not back to the first wave's bake", async (t) => {
  const f = await parkFleet(
    t,
    4,
    '  over: site\n  waves: [[site-001, site-002], [site-003], rest]\n  max-failures: 1\n  analysis: { bake: 1h }',
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 409, site: 'site-002', times: 1 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.equal(first.report!.parked?.wave, 1);

  await f.clock.sleep(HOUR + 60_000, never);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  assert.equal(second.report!.parked?.wave, 2, 'parked for the bake after wave 2');

  await f.clock.sleep(HOUR + 60_000, never);
  const third = await f.run('--continue', id);
  assert.equal(third.report!.parked, null, `not parked again: ${JSON.stringify(third.report!.parked)}`);
  assert.equal(third.code, 1, third.stdout + third.stderr);
  assert.match(
    third.stdout,
    /wave 1\/3: its analysis passed in an earlier run and none of its sites ran again: not repeated/,
  );
  assert.deepEqual(
    third.report!.rollout!.waves.map((w) => [w.outcome, w.failed]),
    [
      ['failed-within-budget', ['site-002']],
      ['done', []],
      ['done', []],
    ],
  );
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-003': 1, 'site-004': 1 });
});

test("a value the operator excluded keeps its wave's analysis: a continue after the next wave's bake goes on, not back to the first wave's bake", async (t) => {
  const f = await parkFleet(
    t,
    4,
    '  over: site\n  waves: [[site-001, site-002], [site-003], rest]\n  max-failures: 1\n  on-failure: decide\n  analysis: { bake: 1h }',
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 409, site: 'site-002', times: 1 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  assert.equal(first.report!.parked?.for, 'decision');
  const id = runIdOf(first.stdout)!;
  const excluded = await f.decide(id, '--exclude', 'site-002', '--reason', 'site-002 is being rebuilt');
  assert.equal(excluded.code, 0, excluded.stdout + excluded.stderr);
  const walk: string[] = [];
  let last = first;
  for (let i = 0; i < 3 && last.code === PARKED; i++) {
    last = await f.run('--continue', id);
    walk.push(`${last.code} ${last.report!.parked?.reason ?? 'ended'}`);
    await f.clock.sleep(HOUR + 60_000, never);
  }
  assert.deepEqual(walk, ['75 the 1h bake after wave 1', '75 the 1h bake after wave 2', '1 ended']);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-003': 1, 'site-004': 1 });
});

test('an analysis kept through several continues says once that it passed in an earlier run', async (t) => {
  const f = await parkFleet(
    t,
    4,
    '  over: site\n  waves: [[site-001], [site-002], [site-003], rest]\n  analysis: { bake: 1h }',
  );
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  let last = first;
  for (let wave = 2; wave <= 4; wave++) {
    await f.clock.sleep(HOUR + 60_000, never);
    last = await f.run('--continue', id);
  }
  assert.equal(last.code, 0, last.stdout + last.stderr);
  const text = last.report!.rollout!.waves[0]!.analysis!.text;
  assert.equal(text.split('(in an earlier run)').length - 1, 1, text);
});
