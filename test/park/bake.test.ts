// A rollout longer than a CI job: a 12 h bake after the canary parks the run (saved in the run
// store, exit 75, no process held); a later --continue before the bake ends parks again, after it
// goes on; every write reaches its site once. The bake is on the simulated clock the emulator and
// the runs share: 12 hours pass in no time.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ROLLOUT = `  over: site
  waves: [[site-001], 1, 40%, rest]
  max-parallel: 5
  analysis: { gates: [alerts], count: 1, interval: 2m, bake: [12h] }`;

const HOUR = 3_600_000;

test('a 20-site rollout in 4 waves with a 12 h bake after the canary: parks, parks again before the bake ends, goes on after it; every write once', async (t) => {
  const f = await parkFleet(t, 20, ROLLOUT);
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.ok(id, first.stdout);
  assert.match(first.stdout, /^parked: waiting for the 12h bake after wave 1$/m);
  assert.match(first.stdout, /enginectl decide --store URL --run /);
  const report = first.report!;
  assert.equal(report.parked?.for, 'bake');
  assert.equal(report.parked?.wave, 1);
  assert.deepEqual(
    report.rollout!.waves.map((w) => w.outcome),
    ['parked', 'not-started', 'not-started', 'not-started'],
  );
  assert.equal(report.outcome, 'success', 'what ran succeeded: parked is neither green nor red');
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 });
  const park = f.records(id).find((r) => r.t === 'park');
  assert.ok(park, 'the park record is in the store');
  assert.equal((park.park as { for: string }).for, 'bake');

  // An hour later: the bake has 11 hours left, on the run's clock: parked again, nothing re-sent.
  await f.clock.sleep(HOUR, new AbortController().signal);
  const early = await f.run('--continue', id);
  assert.equal(early.code, PARKED, early.stdout + early.stderr);
  assert.match(early.stdout, /\(resumed from the store\)/);
  assert.equal(early.report!.parked?.since, report.parked?.since, "the bake's start is the first park's");
  assert.match(early.report!.parked!.waits[0]!.evidence[0]!, /^(11h|10h59m\d+s) left/);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'nothing done is sent again');

  await f.clock.sleep(12 * HOUR, new AbortController().signal);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.equal(done.report!.parked, null);
  assert.deepEqual(
    done.report!.rollout!.waves.map((w) => w.outcome),
    ['done', 'done', 'done', 'done'],
  );
  assert.deepEqual(
    f.applied('/update/system'),
    Object.fromEntries(f.names.map((s) => [s, 1])),
    "each site's update applied once over the three runs",
  );
  // The canary's gate ran again before the wave after it (a carried write's gates run again).
  const canaryGate = done.report!.steps.find(
    (s) => s.id === 'alerts' && s.matrix?.site === 'site-001' && s.round === null,
  );
  assert.equal(canaryGate?.resume, 'resumed');
  assert.equal(canaryGate?.outcome, 'success');
});

test('without a store the bake is waited (on the simulated clock) and nothing parks', async (t) => {
  const f = await parkFleet(t, 4, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  const r = await f.cli(['run', f.file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.report!.parked, null);
  assert.match(r.stdout, /wave 1: baking 12h before its analysis/);
});

test('--continue of a run that did not park is refused, nothing sent', async (t) => {
  const f = await parkFleet(t, 2, `  over: site\n  waves: [[site-001], rest]`);
  const r = await f.run();
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const again = await f.run('--continue', runIdOf(r.stdout)!);
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, /^enginectl: run \S+: its last run did not park; there is nothing to continue$/m);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1 });
});

test('two jobs continuing the same parked run at once: one goes on, the other is refused by the lease', async (t) => {
  const f = await parkFleet(
    t,
    4,
    `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`,
    'lease: { name: fleet }',
  );
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  assert.match(first.stdout, /the lease released/);
  const id = runIdOf(first.stdout)!;
  await f.clock.sleep(13 * HOUR, new AbortController().signal);
  const [a, b] = await Promise.all([f.run('--continue', id), f.run('--continue', id)]);
  assert.deepEqual([a.code, b.code].sort(), [0, 2], a.stdout + a.stderr + b.stdout + b.stderr);
  assert.match((a.code === 2 ? a : b).stderr, /lease fleet is held by/);
  assert.deepEqual(f.applied('/update/system'), Object.fromEntries(f.names.map((s) => [s, 1])));
});

test('park: { keep-lease: true }: the parked run keeps the fleet lease, another run is refused, its own continue takes it back', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`,
    'lease: { name: fleet, ttl: 1h }\npark: { keep-lease: true }',
  );
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  assert.match(first.stdout, /the lease kept for this run's continue \(until its ttl\)/);
  const id = runIdOf(first.stdout)!;
  const other = await f.run();
  assert.equal(other.code, 2, other.stdout + other.stderr);
  assert.match(other.stderr, /lease fleet is held by/);
  await f.clock.sleep(13 * HOUR, new AbortController().signal);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.deepEqual(f.applied('/update/system'), Object.fromEntries(f.names.map((s) => [s, 1])));
});

test("a parked run's JUnit names its note 'parked', not an operator's decision", async (t) => {
  const f = await parkFleet(t, 2, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  const junit = join(f.dir, 'parked.junit.xml');
  const r = await f.run('--junit', junit);
  assert.equal(r.code, PARKED, r.stdout + r.stderr);
  const xml = readFileSync(junit, 'utf8');
  assert.match(xml, /<property name="parked" value="parked: waiting for the 12h bake after wave 1 /);
  assert.doesNotMatch(xml, /name="decision"/, 'no operator decided anything');
});
