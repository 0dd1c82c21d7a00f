// A bake longer than a timer holds (596h, 2^31-1 ms: Node fires a longer setTimeout after 1 ms)
// is waited whole: in waits of at most 2^31-1 ms each, adding up to the bake. Without a run store
// every bake is waited; with one, a bake no longer than park-after is (a park-after past 596h
// too). Before, the run asked its clock for one wait of the whole bake: on the real clock, a
// 1000h bake ended after 1 ms and the next wave started at once. On the simulated clock the runs
// and the emulator share, which records each wait the runs ask of it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TIMER_MS } from '../../src/duration.ts';
import { parkFleet } from './helpers.ts';

const HOUR = 3_600_000;

/** Every wait the run asked for fits a timer, and its long ones (the bake's) add up to the bake (to the ms its clock moved meanwhile). */
function assertBakeWaited(waits: readonly number[], bakeMs: number) {
  const over = waits.filter((ms) => ms > MAX_TIMER_MS);
  assert.deepEqual(over, [], `no wait longer than a timer holds (${MAX_TIMER_MS} ms): ${waits.join(', ')}`);
  const baked = waits.filter((ms) => ms >= HOUR).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(baked - bakeMs) < 1_000, `the bake's waits add up to it (${bakeMs} ms): ${waits.join(', ')}`);
}

test('a 1000h bake without a run store is waited whole, in waits a timer holds (each at most 596h), not one wait a timer fires after 1 ms', async (t) => {
  const f = await parkFleet(t, 2, '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 1000h }');
  const r = await f.cli(['run', f.file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /wave 1: baking 1000h before its analysis/);
  assertBakeWaited(f.waits, 1000 * HOUR);
});

test('with a run store and park-after: 2000h, a 1000h bake is waited whole, in waits a timer holds, not parked', async (t) => {
  const f = await parkFleet(
    t,
    2,
    '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 1000h }',
    'park-after: 2000h',
  );
  const r = await f.run();
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.report!.parked, null);
  assert.match(r.stdout, /wave 1: baking 1000h before its analysis/);
  assertBakeWaited(f.waits, 1000 * HOUR);
});
