// --shard-wait bounds a worker's waiting in all: its waits at barriers, on bakes and for sites'
// windows add up, on the worker's clock, and once they reach the bound the worker parks (exit 75)
// at its next wait, saying what it waits for; the same command, a later job, goes on with a
// bound of its own. An operator sets it below the CI system's job limit, which kills a job that
// waits longer (mid-write).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { until } from '../helpers/timing.ts';
import { shardFleet } from './helpers.ts';
import { shardOf } from '../../src/shard/manifest.ts';
import { parseDuration } from '../../src/duration.ts';

const MINUTE = 60_000;

/** A worker of run `run` through the CLI on `clock`, waiting `wait` in all; its report read back. */
function workerOf(f: Awaited<ReturnType<typeof shardFleet>>, run: string) {
  let reports = 0;
  return async (clock: Clock, wait: string, spec = '1/1') => {
    const json = join(f.dir, `worker-${++reports}.json`);
    // A lease longer than every wait here: the clocks pass hours at once, and no worker may read another's lease lapsed.
    const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec];
    const r = await runCli([...args, '--shard-wait', wait, '--shard-ttl', '24h', '--report-json', json], {
      env: f.env,
      clock,
    });
    return { ...r, out: r.stdout + r.stderr, report: JSON.parse(readFileSync(json, 'utf8')) as Report };
  };
}

test('a worker whose bakes each fit in --shard-wait but not together parks at the bake that passes it (exit 75), saying so; the same command goes on with a wait of its own', async (t) => {
  const f = await shardFleet(
    t,
    4,
    '  over: site\n  waves: [[site-0001], [site-0002], rest]\n  max-failures: 0\n  analysis: { bake: 20m }',
  );
  const run = (await f.shard('--shards', '1')).run;
  const worker = workerOf(f, run);
  const clock = simulatedClock(Date.parse('2027-03-01T12:00:00Z'));
  // The bake after wave 1 (20m) is waited for; the one after wave 2 (20m more, 40m in all) is not.
  const first = await worker(clock, '30m');
  assert.equal(first.code, 75, first.out);
  assert.match(first.out, /wave 1: baking 20m before its analysis/);
  assert.match(first.out, /^parked: waiting for the 20m bake after wave 2; run the same command again later/m);
  assert.equal(first.report.parked?.for, 'bake');
  assert.equal(first.report.parked?.reason, 'the 20m bake after wave 2');
  // The bake's park is the bake's: since it began, until it ends.
  const since = Date.parse(first.report.parked?.since ?? '');
  assert.equal(Date.parse(first.report.parked?.until ?? ''), since + 20 * MINUTE);
  assert.ok(since >= Date.parse('2027-03-01T12:20:00Z'), first.report.parked?.since);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  // The next job: the bake left (within its own wait), then wave 3.
  const second = await worker(clock, '30m');
  assert.equal(second.code, 0, second.out);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1, 'site-0004': 1 });
});

test("a worker that waited for a site's window parks at the wave's bake when the two together pass --shard-wait; the same command goes on", async (t) => {
  const f = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001, site-0002], rest]\n  max-failures: 0\n  analysis: { bake: 20m }',
  );
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '\nsteps:\n',
      '\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: 6h\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n',
    ),
  );
  const run = (await f.shard('--shards', '1')).run;
  const worker = workerOf(f, run);
  // Site-0002's window opens in 20 minutes: waited for (within 30m), then the bake (20m) is past what is left.
  const clock = simulatedClock(Date.parse('2027-03-01T21:40:00Z'));
  const first = await worker(clock, '30m');
  assert.equal(first.code, 75, first.out);
  assert.match(first.out, /site site-0002: its write waits for its window \(opens at 2027-03-01T22:00:00\.000Z\)/);
  assert.match(first.out, /^parked: waiting for the 20m bake after wave 1; run the same command again later/m);
  assert.equal(first.report.parked?.for, 'bake');
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  const second = await worker(clock, '30m');
  assert.equal(second.code, 0, second.out);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1 });
});

test("a worker that waited at one wave's barrier parks at the next one once its waits add up to --shard-wait, its park since that barrier's wait began; the same command goes on", async (t) => {
  // Wave 1: site-0001 (shard 2), site-0002 (shard 1); wave 2: site-0003, site-0004 (shard 1), site-0005, site-0006 (shard 2).
  assert.deepEqual(
    ['site-0001', 'site-0002', 'site-0003', 'site-0004', 'site-0005', 'site-0006'].map((s) => shardOf(s, 2)),
    [1, 0, 0, 0, 1, 1],
  );
  let held: (() => void) | undefined;
  const f = await shardFleet(t, 6, '  over: site\n  waves: [[site-0001, site-0002], rest]\n  max-failures: 0', {
    // Shard 2's write at site-0005 held until the test lets it go: shard 1 waits at wave 2's barrier meanwhile.
    before: (method, path) => {
      if (method !== 'POST' || !path.endsWith('/sites/site-0005/api/devops/v1/update/system')) return;
      return new Promise<void>((go) => (held = go));
    },
  });
  const run = (await f.shard('--shards', '2')).run;
  const worker = workerOf(f, run);
  // Shard 1's clock: every wait passes at once, but the first one past 20 minutes holds until the test lets it go.
  const start = Date.parse('2027-03-01T12:00:00Z');
  const base = simulatedClock(start);
  let stop: number | undefined = start + 20 * MINUTE;
  let stopped: (() => void) | undefined;
  const clock: Clock = {
    now: base.now,
    sleep: async (ms, signal) => {
      await base.sleep(ms, signal);
      if (stop === undefined || base.now() < stop) return;
      stop = undefined;
      await new Promise<void>((go) => (stopped = go));
    },
  };
  const one = worker(clock, '30m', '1/2');
  // Shard 1 ran site-0002 and waited 20 minutes at wave 1's barrier for site-0001.
  await until(() => stopped !== undefined);
  // Shard 2 (a clock of its own, from there) ends wave 1, then holds in wave 2 at site-0005.
  const two = worker(simulatedClock(base.now()), '30m', '2/2');
  await until(() => held !== undefined);
  const released = base.now();
  stopped!();
  const parked = await one;
  const end = base.now();
  assert.equal(parked.code, 75, parked.out);
  // Its words say what it waited at this barrier (not the 30m of its waits in all), then in all, and its bound.
  const said =
    /^parked: waiting for (wave 2's 2 site\(s\) not ended \(site-0005, site-0006\) after (\S+) at this barrier \((\S+) waited in all, --shard-wait 30m\)); run the same command again later/m.exec(
      parked.out,
    );
  assert.ok(said, parked.out);
  const [, reason, here, all] = said as unknown as [string, string, string, string];
  assert.equal(parked.report.parked?.reason, reason);
  assert.equal(parked.report.parked?.for, 'barrier');
  // Its park is since wave 2's barrier's wait began (after wave 1's), and it parked there before waiting 30m there:
  // at most what wave 1's wait left of the 30 minutes.
  const since = Date.parse(parked.report.parked?.since ?? '');
  assert.ok(since >= released, `${parked.report.parked?.since} is before ${new Date(released).toISOString()}`);
  assert.ok(end - since < 30 * MINUTE - 15 * MINUTE, `waited ${(end - since) / MINUTE}m at wave 2's barrier`);
  assert.ok(end - since + (released - start) >= 30 * MINUTE, `waited ${(end - since) / MINUTE}m at wave 2's barrier`);
  // What it says it waited there is that wait, within the whole seconds its words round to.
  assert.ok(Math.abs(parseDuration(here)! - (end - since)) <= 1_000, `${here}: waited ${end - since}ms there`);
  assert.ok(parseDuration(all)! >= 30 * MINUTE && parseDuration(all)! <= end - start + 1_000, all);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1, 'site-0004': 1 });
  // Site-0005 let go: shard 2 ends the rollout; the same command of shard 1 finds it done.
  held!();
  const other = await two;
  assert.equal(other.code, 0, other.out);
  const again = await worker(clock, '30m', '1/2');
  assert.equal(again.code, 0, again.out);
  assert.deepEqual(Object.values(f.applied('/update/system')), [1, 1, 1, 1, 1, 1]);
});
