// A site of a sharded run whose write its window does not admit: it does not fail (nor count
// against its wave's budget), its run parks for the window as one process's stored run does; the
// worker waits for the window on its clock when it opens within --shard-wait, else parks (exit 75)
// saying which site waits for which window, and the same command run later goes on with the site
// (the window judged again), the write sent once, the next wave only after it.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { retryingUpdate, shardFleet, waveLog } from './helpers.ts';
import { shardOf } from '../../src/shard/manifest.ts';

const OPENS = '2027-03-01T22:00:00.000Z';

/**
 * Three sites in two waves (a budget of 0), site-0002's writes only in its nightly window from 22:00
 * UTC (6 hours, or `duration`); one shard. `inDoubt`: site-0002's update retried 30 minutes after
 * its first POST, which the API applies and a gateway answers 504 (in doubt).
 */
async function windowedFleet(
  t: TestContext,
  {
    duration = '6h',
    inDoubt = false,
    shards = 1,
    waves = '[[site-0001, site-0002], rest]',
    assign = 'static',
    before = '',
  } = {},
) {
  const updates: string[] = [];
  const f = await shardFleet(t, 3, `  over: site\n  waves: ${waves}\n  max-failures: 0`, {
    answered: (method, path) => {
      const site = /\/sites\/([^/]+)\/api\/devops\/v1\/update\/system$/.exec(path)?.[1];
      if (method === 'POST' && site) updates.push(site);
    },
  });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '\nsteps:\n',
      `\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: ${duration}\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n`,
    ),
  );
  // Steps before the update, as written.
  writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('  - id: update\n', `${before}  - id: update\n`));
  if (inDoubt) retryingUpdate(f, 'site-0002');
  const run = (await f.shard('--shards', String(shards), '--assign', assign)).run;
  let reports = 0;
  const worker = async (clock: ReturnType<typeof simulatedClock>, wait: string, spec = '1/1') => {
    const json = join(f.dir, `worker-${++reports}.json`);
    const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec];
    // A lease longer than any wait here: each worker runs on a simulated clock of its own, and one
    // that polls at its barrier for hours on it must not read the other's lease lapsed (and take
    // over a site that worker is running).
    const r = await runCli([...args, '--shard-wait', wait, '--shard-ttl', '24h', '--report-json', json], {
      env: f.env,
      clock,
    });
    return { ...r, out: r.stdout + r.stderr, json, report: JSON.parse(readFileSync(json, 'utf8')) as Report };
  };
  return { f, run, updates, worker };
}

const advance = (clock: ReturnType<typeof simulatedClock>, to: string) =>
  clock.sleep(Date.parse(to) - clock.now(), new AbortController().signal);

test('a sharded site whose window is closed parks (exit 75), not failed nor counted against the budget; the same command run once its window opened sends its write once, and the next wave starts only after it', async (t) => {
  const { f, run, updates, worker } = await windowedFleet(t);
  const clock = simulatedClock(Date.parse('2027-03-01T12:00:00Z'));
  const first = await worker(clock, '30m');
  assert.equal(first.code, 75, first.out);
  assert.match(first.out, /parked: waiting for site site-0002's window \(opens at 2027-03-01T22:00:00\.000Z\)/);
  assert.doesNotMatch(first.out, /WINDOW_CLOSED|halted/);
  assert.deepEqual(updates, ['site-0001']);
  // Not ended in its wave: no failure in the wave's log, which the budget of 0 would halt on.
  assert.deepEqual(
    waveLog(f.store, run, 1).filter((e) => e.kind === 'ended'),
    [{ kind: 'ended', site: 'site-0001', worker: 0, outcome: 'success' }],
  );
  assert.equal(first.report.parked?.for, 'window');
  assert.equal(first.report.parked?.until, OPENS);
  // Its file merged alone (the CI's artifacts): the rollout waits for the window there too.
  const byFile = await runCli(['report', '--merge', first.json, '--expect-shards', '1'], { env: f.env, clock });
  assert.equal(byFile.code, 0, byFile.stdout + byFile.stderr);
  assert.match(byFile.stdout + byFile.stderr, /⏸ the rollout waits at wave 1 for site site-0002's window/);
  assert.doesNotMatch(byFile.stdout + byFile.stderr, /no report/);

  // The merged report: the rollout waits at wave 1 for the site's window, not failed, not "no report".
  const json = join(f.dir, 'merged.json');
  const merged = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', json], {
    env: f.env,
    clock,
  });
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.equal(report.outcome, 'success');
  assert.equal(report.parked?.for, 'window');
  assert.equal(report.parked?.until, OPENS);
  assert.equal(report.parked?.reason, `site site-0002's window (opens at ${OPENS})`);
  assert.deepEqual(report.merged?.noReport, []);
  // The next wave's site not started, as a park leaves it (not "no report", not stopped).
  assert.deepEqual(
    report.steps.filter((s) => s.matrix?.site === 'site-0003').map((s) => [s.outcome, s.error?.code]),
    [
      ['cancelled', 'ROLLOUT_PARKED'],
      ['cancelled', 'ROLLOUT_PARKED'],
    ],
  );
  assert.match(
    merged.stdout + merged.stderr,
    /⏸ the rollout waits at wave 1 for site site-0002's window \(opens at 2027-03-01T22:00:00\.000Z\); run the workers that parked again \(the same commands\) at or after 2027-03-01T22:00:00\.000Z; not started: site-0003/,
  );
  assert.doesNotMatch(merged.stdout + merged.stderr, /no report|stopped in wave/);
  const listed = await runCli(['runs', '--store', f.storeUrl, '--parked'], { env: f.env, clock });
  assert.equal(listed.code, 0, listed.stdout + listed.stderr);
  assert.match(
    listed.stdout,
    new RegExp(
      `^${run}  "Fleet release" .* parked at wave 1 since \\S+Z: waiting for site site-0002's window \\(opens at ${OPENS.replace(/\./g, '\\.')}\\)\\n {2}run its workers that parked again \\(the same commands\\) at or after ${OPENS.replace(/\./g, '\\.')}\\n$`,
    ),
  );

  // Before the window opens, the same command parks again, sending nothing.
  await advance(clock, '2027-03-01T20:00:00Z');
  const early = await worker(clock, '30m');
  assert.equal(early.code, 75, early.out);
  assert.deepEqual(updates, ['site-0001']);

  // Once it opened: the site's run goes on (the window judged again), its write sent once, then wave 2.
  await advance(clock, OPENS);
  const second = await worker(clock, '30m');
  assert.equal(second.code, 0, second.out);
  assert.deepEqual(updates, ['site-0001', 'site-0002', 'site-0003']);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1 });
  const after = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run], { env: f.env, clock });
  assert.equal(after.code, 0, after.stdout + after.stderr);
});

test('a sharded site whose window opens within --shard-wait: its worker waits for it on its clock and goes on with the site, the write sent once, then the next wave', async (t) => {
  const { f, updates, worker } = await windowedFleet(t);
  const clock = simulatedClock(Date.parse('2027-03-01T21:50:00Z'));
  const done = await worker(clock, '30m');
  assert.equal(done.code, 0, done.out);
  assert.match(
    done.out,
    /site site-0002: its write waits for its window \(opens at 2027-03-01T22:00:00\.000Z\): this worker waits for it/,
  );
  assert.deepEqual(updates, ['site-0001', 'site-0002', 'site-0003']);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1 });
  assert.ok(clock.now() >= Date.parse(OPENS));
});

test("a sharded site whose retry its window refuses, an earlier attempt's write in doubt: it parks, and the same command after the window opened reads the write back (applied) and does not send it again", async (t) => {
  // A window of 70 minutes: the first attempt (an hour and its margin) fits at 22:00, the retry 30 minutes later does not.
  const { f, updates, worker } = await windowedFleet(t, { duration: '70m', inDoubt: true });
  const clock = simulatedClock(Date.parse(OPENS));
  const first = await worker(clock, '30m');
  assert.equal(first.code, 75, first.out);
  assert.match(first.out, /parked: waiting for site site-0002's window \(opens at 2027-03-02T22:00:00\.000Z\)/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  await advance(clock, '2027-03-02T22:00:00Z');
  const second = await worker(clock, '30m');
  assert.equal(second.code, 0, second.out);
  assert.match(second.out, /verify: "Update site-0002": applied/);
  // Never sent twice: its one POST (in doubt, applied) read back, not sent again; then wave 2.
  assert.deepEqual(updates, ['site-0001', 'site-0002', 'site-0003']);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1 });
});

test("two static shards: the worker of a site whose window is closed parks for it, the other parks at the barrier; the store's merge says the rollout waits for the site's window; both run again once it opened go on through wave 2", async (t) => {
  // Shard 1/2 owns site-0002 (windowed) and site-0003 (wave 2), shard 2/2 site-0001 (test/shard/manifest: a stable hash).
  assert.deepEqual(
    ['site-0001', 'site-0002', 'site-0003'].map((s) => shardOf(s, 2)),
    [1, 0, 0],
  );
  const { f, run, updates, worker } = await windowedFleet(t, { shards: 2 });
  // A clock of each worker's own: the barrier's polls pass at once on it.
  const at = (time: string) => simulatedClock(Date.parse(time));
  const first = await Promise.all([
    worker(at('2027-03-01T12:00:00Z'), '30m', '1/2'),
    worker(at('2027-03-01T12:00:00Z'), '30m', '2/2'),
  ]);
  assert.equal(first[0].code, 75, first[0].out);
  assert.match(first[0].out, /parked: waiting for site site-0002's window \(opens at 2027-03-01T22:00:00\.000Z\)/);
  assert.equal(first[1].code, 75, first[1].out);
  assert.match(first[1].out, /parked: waiting for wave 1's 1 site\(s\) not ended \(site-0002\)/);
  assert.deepEqual(updates, ['site-0001']);
  const reader = at('2027-03-01T13:00:00Z');
  const merged = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run], {
    env: f.env,
    clock: reader,
  });
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.match(
    merged.stdout + merged.stderr,
    /⏸ the rollout waits at wave 1 for site site-0002's window \(opens at 2027-03-01T22:00:00\.000Z\)/,
  );
  const second = await Promise.all([worker(at(OPENS), '30m', '1/2'), worker(at(OPENS), '10h', '2/2')]);
  for (const w of second) assert.equal(w.code, 0, w.out);
  assert.deepEqual(updates, ['site-0001', 'site-0002', 'site-0003']);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1 });
});

test("a sharded site parked for its window in a wave whose failures then passed its budget: the wave's verdict halts the rollout (exit 1), and the same command run once the window opened does not send its write in the wave the rollout halted at", async (t) => {
  // site-0002 (windowed) first, then site-0001, whose update the API refuses (409): the budget of 0 is spent.
  const { f, run, updates, worker } = await windowedFleet(t, { waves: '[[site-0002, site-0001], rest]' });
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    status: 409,
    site: 'site-0001',
    times: 1,
  });
  const clock = simulatedClock(Date.parse('2027-03-01T12:00:00Z'));
  const first = await worker(clock, '30m');
  assert.equal(first.code, 1, first.out);
  // The site parked for its window holds the verdict no more than a site never started: it is written.
  assert.match(first.out, /^wave 1: halted: 1 site\(s\) failed \(site-0001\), over the budget of 0$/m);
  const merged = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run], { env: f.env, clock });
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.match(merged.stdout + merged.stderr, /✖ the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\)/);
  await advance(clock, OPENS);
  const again = await worker(clock, '30m');
  assert.equal(again.code, 1, again.out);
  // Its worker killed before it wrote the verdict (the verdict not in the store): the site's run taken over stays parked.
  rmSync(join(f.store, 'shards', run, 'waves', '1', 'verdict'));
  const cut = await worker(clock, '30m');
  assert.equal(cut.code, 1, cut.out);
  assert.match(
    cut.out,
    /site site-0002: its run \S+ waits for its window, and its wave's failures passed its budget: not gone on with, nothing sent/,
  );
  // Nothing sent to site-0002, nor to wave 2's site.
  assert.deepEqual(updates, ['site-0001']);
  assert.deepEqual(f.applied('/update/system'), {});
});

test("two queue workers: a site parked for its window leaves both parked (exit 75, whichever holds it last, nothing sent to it), the store's merge saying the rollout waits for its window; run again once it opened, the write is sent once, then wave 2", async (t) => {
  const { f, run, updates, worker } = await windowedFleet(t, { shards: 2, assign: 'queue' });
  const at = (time: string) => simulatedClock(Date.parse(time));
  const first = await Promise.all(['1/2', '2/2'].map((spec) => worker(at('2027-03-01T12:00:00Z'), '30m', spec)));
  for (const w of first) assert.equal(w.code, 75, w.out);
  assert.deepEqual(updates, ['site-0001']);
  const merged = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run], {
    env: f.env,
    clock: at('2027-03-01T13:00:00Z'),
  });
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.match(merged.stdout + merged.stderr, /⏸ the rollout waits at wave 1 for site site-0002's window/);
  const second = await Promise.all(['1/2', '2/2'].map((spec) => worker(at(OPENS), '10h', spec)));
  for (const w of second) assert.equal(w.code, 0, w.out);
  assert.deepEqual(updates, ['site-0001', 'site-0002', 'site-0003']);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1 });
});

test("a sharded site's write refused under continue-on-error before its run parked for its window: the same command after the window opened goes on past it, never sending it again", async (t) => {
  // A window of 70 minutes: at 22:15 a 1-minute clear fits, the update (an hour and its margin) does not.
  const { f, run, worker } = await windowedFleet(t, {
    duration: '70m',
    before:
      '  - id: clear\n    uses: transaction-log/clear\n    matrix: { site: "${{ vars.sites }}" }\n    server: ${{ matrix.site }}\n    expected: 1m\n    continue-on-error: true\n',
  });
  // site-0002's clear refused once (409: known not applied): a failure its run goes past.
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/transaction-log/clear',
    status: 409,
    site: 'site-0002',
    times: 1,
  });
  const clock = simulatedClock(Date.parse('2027-03-01T22:15:00Z'));
  const first = await worker(clock, '30m');
  assert.equal(first.code, 75, first.out);
  assert.match(first.out, /parked: waiting for site site-0002's window \(opens at 2027-03-02T22:00:00\.000Z\)/);
  assert.deepEqual(f.applied('/transaction-log/clear'), { 'site-0001': 1 });

  await advance(clock, '2027-03-02T22:00:00Z');
  const second = await worker(clock, '30m');
  assert.equal(second.code, 0, second.out);
  assert.deepEqual(f.applied('/transaction-log/clear'), { 'site-0001': 1, 'site-0003': 1 }, second.out);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1 });
  const json = join(f.dir, 'merged.json');
  const merged = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', json], {
    env: f.env,
    clock,
  });
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const clear = (JSON.parse(readFileSync(json, 'utf8')) as Report).steps.find(
    (s) => s.id === 'clear' && s.matrix?.site === 'site-0002',
  )!;
  assert.equal(clear.outcome, 'failure');
  assert.equal(clear.continuedOnError, true);
});
