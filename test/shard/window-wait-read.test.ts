// A sharded run read (report --merge --store) while a worker sleeps for a site's window: the site
// is told as waiting for its window, held by that worker, not as running (nothing of it is sent
// until the window opens).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, windowDoubtFleet } from './helpers.ts';

const OPENS = '2027-03-01T22:00:00.000Z';

/**
 * One shard of three sites in two waves, site-0002's writes only in its nightly window from 22:00
 * UTC; its worker at 21:50 waits for the window, its sleep held until the store's merged report was
 * read on a clock at `readAt` (and the runs listed); then the worker goes on and ends.
 */
async function readWhileAsleep(t: TestContext, readAt: string) {
  const f = await shardFleet(t, 3, `  over: site\n  waves: [[site-0001, site-0002], rest]\n  max-failures: 0`);
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '\nsteps:\n',
      `\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: 6h\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n`,
    ),
  );
  const { run } = await f.shard('--shards', '1');
  // The worker's clock: its sleep for the window hangs until released (its other waits pass at once).
  const base = simulatedClock(Date.parse('2027-03-01T21:50:00Z'));
  let asleep!: () => void;
  let wake!: () => void;
  const sleeping = new Promise<void>((resolve) => (asleep = resolve));
  const woken = new Promise<void>((resolve) => (wake = resolve));
  const clock: Clock = {
    now: base.now,
    sleep: async (ms, signal) => {
      if (ms >= 5 * 60_000) {
        asleep();
        await woken;
      }
      return base.sleep(ms, signal);
    },
  };
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-wait', '30m'];
  const working = runCli([...args, '--shard-ttl', '24h'], { env: f.env, clock });
  await sleeping;
  const json = join(f.dir, 'merged.json');
  const reader = simulatedClock(Date.parse(readAt));
  const read = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', json], {
    env: f.env,
    clock: reader,
  });
  const listed = await runCli(['runs', '--store', f.storeUrl], { env: f.env, clock: reader });
  wake();
  const done = await working;
  assert.equal(done.code, 0, done.stdout + done.stderr);
  return { run, out: read.stdout + read.stderr, listed, report: JSON.parse(readFileSync(json, 'utf8')) as Report };
}

test("a worker sleeping for a site's window: the store's merged report read meanwhile says the site waits for its window (held by that worker), not that it runs", async (t) => {
  const { run, out, listed, report } = await readWhileAsleep(t, '2027-03-01T21:51:00Z');
  const opens = OPENS.replace(/\./g, '\\.');
  assert.match(
    out,
    new RegExp(`the run is under way at wave 1: waiting for site site-0002's window \\(opens at ${opens}\\)`),
  );
  assert.match(
    out,
    new RegExp(
      `⋯ site=site-0002: under way \\(shard 1/1 holds it until \\S+; waiting for the next window "Update site-0002" fits in, at ${opens}\\)`,
    ),
  );
  assert.doesNotMatch(out, /running: site-0002/);
  assert.match(listed.stdout, new RegExp(`^${run} .* under way at wave 1\\n`, 'm'));
  assert.equal(report.outcome, 'under-way');
  assert.deepEqual(report.merged?.underWay?.sites, []);
  // Its steps not ended, each saying it waits for the window (not "cancelled"): the site is under way.
  const steps = report.steps.filter((s) => s.matrix?.site === 'site-0002' && s.outcome === 'cancelled');
  assert.equal(steps.length, 2, out);
  for (const s of steps) {
    assert.equal(s.error?.code, 'UNDER_WAY');
    assert.match(
      s.error.message,
      new RegExp(`waits for its window \\(opens at ${opens}\\) when this report was read: shard 1/1 holds site-0002`),
    );
  }
});

test("a site whose run went on once its window opened on its worker's clock (its PATCH in flight), read on a clock a minute behind that worker's: the site runs, not 'waits for its window; nothing of it is sent before it opens'", async (t) => {
  const { f, run, worker, patches } = await windowDoubtFleet(t, { hang: true });
  // Shard 1/2 at noon: site-0002's window is closed, its run parks for it.
  const parked = await worker('2027-03-01T12:00:00Z', '1/2');
  assert.equal(parked.code, 75, parked.out);
  // At 22:00 on its clock the same command goes on with the site: its PATCH leaves, held by the server.
  const stop = new AbortController();
  t.after(() => stop.abort());
  const going = worker(OPENS, '1/2', stop.signal);
  while (patches().sent === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  const json = join(f.dir, 'behind.json');
  const read = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', json], {
    env: f.env,
    clock: simulatedClock(Date.parse('2027-03-01T21:59:00Z')),
  });
  stop.abort();
  await going;
  const out = read.stdout + read.stderr;
  assert.deepEqual(patches(), { sent: 1, applied: 0 });
  assert.doesNotMatch(out, /nothing of it is sent before it opens/);
  assert.doesNotMatch(out, /waiting for site site-0002's window/);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.deepEqual(report.merged?.underWay?.sites, ['site-0002'], out);
});

test("a worker still asleep for a site's window read on a clock 30s past its opening (the worker about to go on with it): the site's steps are under way, none cancelled WINDOW_PARKED with a hint to continue it", async (t) => {
  const { out, report } = await readWhileAsleep(t, '2027-03-01T22:00:30Z');
  assert.equal(report.outcome, 'under-way', out);
  const steps = report.steps.filter((s) => s.matrix?.site === 'site-0002');
  assert.deepEqual(
    steps.filter((s) => s.error?.code === 'WINDOW_PARKED').map((s) => [s.id, s.outcome, s.error?.hint]),
    [],
    out,
  );
  for (const s of steps.filter((x) => x.outcome === 'cancelled')) assert.equal(s.error?.code, 'UNDER_WAY', out);
  assert.match(out, /running: site-0002/);
});
