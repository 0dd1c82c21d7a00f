// A decision with a timeout (decide --after 4h --then abort|continue) "takes effect D after it was
// made, unless another is made before". Before, a later decision did not void it: once its time
// came the timed abort ended the run the operator had decided on (--skip site-002), and the timed
// continue went past the wave and its bake; decide and runs --parked still showed it as coming.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { PARKED, parkedOnRefusal } from './helpers.ts';

const HOUR = 3_600_000;
const never = new AbortController().signal;
const ROLLOUT = '  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide';

/** A rollout parked on site-002's refused update in wave 2 (budget 0), with a decision timed 4h out. */
async function parkedWithTimeout(t: TestContext, then: 'abort' | 'continue', rollout = ROLLOUT) {
  const { f, id } = await parkedOnRefusal(t, rollout, 'site-002', 1);
  const timed = await f.decide(id, '--after', '4h', '--then', then, '--reason', 'nobody looked');
  assert.equal(timed.code, 0, timed.stdout + timed.stderr);
  await f.clock.sleep(HOUR, never);
  return { f, id };
}

test('decide --after 4h --then abort, then --skip site-002 an hour later: the continue 5h after goes on on the skip, not aborted', async (t) => {
  const { f, id } = await parkedWithTimeout(t, 'abort');
  const skip = await f.decide(id, '--skip', 'site-002', '--reason', 'looked: leave site-002 out');
  assert.equal(skip.code, 0, skip.stdout + skip.stderr);
  await f.clock.sleep(4 * HOUR, never);
  const listed = await f.cli(['runs', '--store', f.storeUrl, '--parked']);
  assert.doesNotMatch(listed.stdout, /unless decided before/, 'the timeout was decided before: not shown as coming');
  assert.match(listed.stdout, new RegExp(`^${id}\\b`, 'm'), 'still parked, for the continue');
  const done = await f.run('--continue', id);
  // Not aborted: wave 2 goes on without site-002, which still failed (its update refused): exit 1.
  assert.equal(
    done.code,
    1,
    `the skip, made before the timeout, is the decision in force:\n${done.stdout}${done.stderr}`,
  );
  assert.equal(done.report!.outcome, 'failure');
  assert.equal(done.report!.parked, null, 'not parked: gone on, not aborted');
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-003': 1 });
});

test("decide --after 4h --then continue, then --retry site-002 an hour later: the continue 5h after sends it again and bakes the wave, never going past it on the timeout's word", async (t) => {
  const baked =
    '  over: site\n  waves: [[site-001, site-002], rest]\n  max-failures: 0\n  on-failure: decide\n  analysis: { bake: 12h }';
  const { f, id } = await parkedWithTimeout(t, 'continue', baked);
  assert.equal((await f.decide(id, '--retry', 'site-002', '--reason', 'a transient refusal')).code, 0);
  await f.clock.sleep(4 * HOUR, never);
  const listed = await f.decide(id);
  assert.doesNotMatch(listed.stdout, /decided with a timeout/, listed.stdout);
  const done = await f.run('--continue', id);
  assert.equal(done.code, PARKED, `parked for wave 1's bake:\n${done.stdout}${done.stderr}`);
  assert.match(done.stdout, /bake/);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1 }, 'site-003 waits for the bake');
});

test('decide --after 4h --then continue, then --abort within the 4h: the continue 5h after is refused (aborted), nothing more sent', async (t) => {
  const { f, id } = await parkedWithTimeout(t, 'continue');
  assert.equal((await f.decide(id, '--abort', '--reason', 'bad release')).code, 0);
  await f.clock.sleep(4 * HOUR, never);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 2, done.stdout + done.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });
});

test('decide --after that is no duration, or 0s, is refused before the store is read: it says which, and records nothing', async (t) => {
  const { f, id } = await parkedWithTimeout(t, 'abort');
  for (const [after, said] of [
    ['4x', /decide: --after 4x: not a duration/],
    ['0s', /decide: --after 0s would take effect at once/],
  ] as const) {
    const r = await f.decide(id, '--after', after, '--then', 'abort');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, said);
  }
  const missing = await f.cli([
    'decide',
    '--store',
    'file:///nonexistent-enginectl-store',
    '--run',
    id,
    '--after',
    '0s',
    '--then',
    'abort',
  ]);
  assert.equal(missing.code, 2, missing.stdout + missing.stderr);
  const listed = await f.decide(id);
  assert.match(listed.stdout, /decided with a timeout: abort at /, 'only the first timed decision is recorded');
});
