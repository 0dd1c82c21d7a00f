// A sharded run's merged report read from the store while its workers still run (an operator
// watching the rollout, or a final job started before a worker's lease lapsed): what is under way
// is said to be under way, never "cancelled", "in doubt" or "no report: its job died", and the
// report is not the run's result (exit 1 until every site ended). Once a worker's lease lapsed
// on the reader's clock, what it left is told as a killed run's: its call in doubt.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { realClock, simulatedClock } from '../../src/app/clock.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { shardOf } from '../../src/shard/manifest.ts';
import { retryingUpdate, shardFleet, workerProcess } from './helpers.ts';

/** A run of `n` sites (3 unless given) over `shards` workers (1: all of them worker 1's), the system update at `site` (site-0002) held at the server until `release()`; `what`: its engines' read before it instead. */
async function heldRun(
  t: Parameters<typeof shardFleet>[0],
  n = 3,
  shards = 1,
  { site = 'site-0002', what = 'update' }: { site?: string; what?: 'update' | 'engines' } = {},
) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  const f = await shardFleet(t, n, '  over: site\n  waves: [rest]\n  max-parallel: 1', {
    before: (method, path) => {
      const call = what === 'update' ? ['POST', '/update/system'] : ['GET', '/monitoring/v1/engines'];
      if (method !== call[0] || !path.includes(`/${site}/`) || !path.endsWith(call[1]!)) return;
      reached();
      return held;
    },
  });
  const run = (await f.shard('--shards', String(shards))).run;
  const worker = f.worker(run, `${shardOf(site, shards) + 1}/${shards}`, '--shard-ttl', '1h');
  t.after(async () => (release(), await worker));
  await atServer;
  return { f, run, worker, release };
}

const rowsOf = (r: Report) =>
  r.steps.map(
    (s) =>
      `${String(s.matrix?.site)} ${s.id}: ${s.outcome}${s.error ? ` ${s.error.code}` : ''}${s.inDoubt ? ' in doubt' : ''}`,
  );

test('a sharded run merged while its worker runs: the site under way is under way (not cancelled, not in doubt), the site not started yet is not "no report"; the report says it is not the result, exit 1; once the worker ended, success', async (t) => {
  const { f, run, worker, release } = await heldRun(t);
  const during = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(during.code, 1, 'not the result yet: a CI gate on it does not pass');
  const report = during.report!;
  assert.deepEqual(rowsOf(report), [
    'site-0001 update: success',
    'site-0002 update: cancelled UNDER_WAY',
    'site-0003 update: cancelled UNDER_WAY',
    'site-0001 alerts: success',
    'site-0002 alerts: cancelled UNDER_WAY',
    'site-0003 alerts: cancelled UNDER_WAY',
  ]);
  assert.equal(report.outcome, 'under-way', 'not success, failure or cancelled: the run has not ended');
  assert.deepEqual(
    report.merged?.reports.map((r) => [r.limitedTo, r.outcome, r.underWay?.shard ?? null]),
    [
      ['site=site-0001', 'success', null],
      ['site=site-0002', 'under-way', 1],
    ],
  );
  assert.equal(report.counts.inDoubt, 0, 'a call in flight is not in doubt');
  assert.deepEqual(report.merged?.noReport, [], 'no site is "no report" while the run is under way');
  assert.deepEqual(report.merged?.underWay?.sites, ['site-0002']);
  assert.deepEqual(report.merged?.underWay?.notStarted, ['site-0003']);
  assert.equal(report.rollout?.waves[0]?.outcome, 'under-way');
  const update = report.steps.find((s) => s.matrix?.site === 'site-0002' && s.id === 'update')!;
  assert.match(
    update.error!.message,
    /^under way when this report was read: shard 1\/1 holds site-0002 \(its lease until \S+\); its call POST \/api\/devops\/v1\/update\/system is sent, its outcome not yet recorded$/,
  );
  assert.match(
    report.steps.find((s) => s.matrix?.site === 'site-0002' && s.id === 'alerts')!.error!.message,
    /^not started yet: shard 1\/1 holds site-0002 \(its lease until \S+\)$/,
    'the step after the one in flight is not started yet',
  );
  const later = report.steps.find((s) => s.matrix?.site === 'site-0003' && s.id === 'update')!;
  assert.equal(later.error!.message, 'not started yet: the run is under way at wave 1');
  // The terminal: the site's row and the fleet's line say under way; nothing says died, cancelled or in doubt.
  assert.match(during.stdout, /^⋯ site=site-0002: under way \(shard 1\/1 holds it until \S+\)/m);
  assert.match(
    during.stdout,
    /^⋯ the run is under way at wave 1: running: site-0002; not started yet: site-0003; this report is not its result: read it again once its workers ended$/m,
  );
  assert.match(during.stdout, /^fleet "Fleet release": under way in /m);
  assert.doesNotMatch(during.stdout, /no report|in doubt|cancelled/);
  // Given again as a file to report --merge, it is still no run's result.
  const file = `${f.dir}/read-under-way.json`;
  writeFileSync(file, JSON.stringify(report));
  const again = await f.cli(['report', '--merge', file]);
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.equal(again.report!.outcome, 'under-way');
  // The summary says so first.
  const md = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--summary', `${f.dir}/during.md`]);
  assert.equal(md.code, 1);
  const summary = readFileSync(`${f.dir}/during.md`, 'utf8');
  assert.match(summary, /^## 🔄 Fleet release: under way$/m);
  assert.match(
    summary,
    /^\*\*under way when read \(\S+\), at wave 1: 1 site\(s\) running, 1 not started yet; this report is not the run's result: read it again once its workers ended\*\*$/m,
  );
  assert.doesNotMatch(summary, /in doubt|no report|cancelled|⏹️|^### (Failed|Cancelled)/m);
  release();
  const ended = await worker;
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);
  const after = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(after.code, 0, after.stdout + after.stderr);
  assert.equal(after.report!.merged?.underWay, null);
  assert.ok(
    after.report!.steps.every((s) => s.outcome === 'success'),
    rowsOf(after.report!).join('\n'),
  );
});

test("a sharded run merged once its worker's lease lapsed on the reader's clock (the worker gone): what it left is told as a killed run's, its call in doubt, the sites it never started 'no report'", async (t) => {
  const { f, run } = await heldRun(t);
  const real = realClock();
  const hoursOn = { now: () => real.now() + 2 * 3_600_000, sleep: real.sleep };
  const json = `${f.dir}/lapsed.json`;
  const read = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', json], {
    env: f.env,
    clock: hoursOn,
  });
  assert.equal(read.code, 1, read.stdout + read.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.deepEqual(rowsOf(report), [
    'site-0001 update: success',
    'site-0002 update: cancelled IN_DOUBT in doubt',
    'site-0001 alerts: success',
    'site-0002 alerts: cancelled NOT_STARTED',
  ]);
  assert.equal(report.merged?.underWay, null);
  assert.deepEqual(report.merged?.noReport, ['site=site-0003']);
});

test("a static run under way whose other shard's worker has not started: that shard is 'no worker started yet' and its sites 'no report', the run's own shard's sites not started yet; the outcome is under-way, not failure", async (t) => {
  const { f, run } = await heldRun(t, 6, 2);
  const mine = shardOf('site-0002', 2);
  const json = `${f.dir}/static.json`;
  const read = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', json], {
    env: f.env,
  });
  assert.equal(read.code, 1, read.stdout + read.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.equal(report.outcome, 'under-way');
  const others = f.names.filter((s) => shardOf(s, 2) !== mine);
  const own = f.names.filter((s) => shardOf(s, 2) === mine && s !== 'site-0002');
  assert.ok(others.length > 0, 'a split this test can use');
  assert.deepEqual(report.merged?.noReport, [
    ...others.map((s) => `site=${s}`),
    `shard ${2 - mine}/2 (no worker started yet)`,
  ]);
  assert.deepEqual(report.merged?.underWay?.sites, ['site-0002']);
  // The run's own shard runs its sites one at a time: those after site-0002 are not started yet (site-0001 ended, if it is this shard's).
  assert.deepEqual(
    report.merged?.underWay?.notStarted,
    own.filter((s) => s > 'site-0002'),
  );
  assert.match(read.stdout, new RegExp(`^✖ shard ${2 - mine}/2 \\(no worker started yet\\): no report`, 'm'));
});

test('the summary, HTML and JUnit of a fleet of 50 sites read under way count what has not ended as such, not as cancelled', async (t) => {
  const { f, run } = await heldRun(t, 50);
  const files = ['md', 'html', 'xml'].map((ext) => `${f.dir}/fleet.${ext}`);
  const read = await runCli(
    [
      'report',
      '--merge',
      '--store',
      f.storeUrl,
      '--run',
      run,
      '--summary',
      files[0]!,
      '--html',
      files[1]!,
      '--junit',
      files[2]!,
    ],
    { env: f.env },
  );
  assert.equal(read.code, 1, read.stdout + read.stderr);
  const [md, html, junit] = files.map((file) => readFileSync(file, 'utf8'));
  assert.match(md!, /^## 🔄 Fleet release: under way$/m);
  // The fleet's counts by step: site-0001 ended, 49 not.
  assert.match(md!, /^\| 1 \(update\) \| `update\/system` \| 50 \| 1 succeeded, 49 not ended yet \|$/m);
  assert.doesNotMatch(md!, /cancelled|⏹️|⚠️/);
  assert.match(html!, /<h1>Fleet release: under way<\/h1>/);
  assert.match(html!, /<i style="background:#0969da"><\/i>under way 98<\/span>/, 'the grid counts the cells under way');
  assert.doesNotMatch(html!, /in doubt [1-9]/);
  // JUnit: one failure says the run was under way (no test view shows it green); what has not ended is skipped, saying why.
  assert.match(junit!, /<testsuites [^>]*tests="101" failures="1"/);
  assert.match(
    junit!,
    /<testcase name="under way \(not the run's result\)"[^>]*>\s*<failure type="UNDER_WAY" message="the run was under way at wave 1 when this report was read/,
  );
  assert.match(junit!, /<skipped message="not started yet: the run is under way at wave 1"\/>/);
});

test("a queue run under way whose wave's failures passed its budget: the sites no worker will start say so, not 'not started yet'", async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atServer = new Promise<void>((resolve) => (reached = resolve));
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]\n  max-parallel: 2\n  max-failures: 0', {
    before: (method, path) => {
      if (method !== 'POST' || !path.includes('/site-0002/') || !path.endsWith('/update/system')) return;
      reached();
      return held;
    },
  });
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const run = (await f.shard('--shards', '1', '--assign', 'queue')).run;
  const worker = f.worker(run, '1/1', '--shard-ttl', '1h');
  let ended = false;
  void worker.then(() => (ended = true));
  t.after(async () => (release(), await worker));
  await atServer;
  // Read again until site-0001 has ended, its failure in the wave's log (until then it is under way, failing).
  let read: Awaited<ReturnType<typeof f.cli>> | undefined;
  for (;;) {
    read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
    if (read.report?.merged?.reports.some((r) => r.outcome === 'failure' && !r.underWay)) break;
    if (ended) assert.fail(`the worker ended while site-0002 was held: ${(await worker).stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(read.code, 1);
  assert.equal(read.report!.outcome, 'under-way');
  assert.deepEqual(read.report!.merged?.underWay?.sites, ['site-0002']);
  const later = read.report!.steps.filter((s) => s.matrix?.site === 'site-0003' || s.matrix?.site === 'site-0004');
  assert.equal(later.length, 4);
  for (const s of later)
    assert.equal(
      s.error?.message,
      "not started: wave 1's failures passed its budget of 0; the rollout halts once its sites ended",
    );
  release();
  assert.equal((await worker).code, 1);
});

test('a rollout read between waves while its workers are alive (one runs the analysis, one waits at the barrier) is under way, not parked: exit 1, the later sites not started yet', async (t) => {
  const f = await shardFleet(
    t,
    4,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 2, interval: 2m }',
  );
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  const workers = ['1/2', '2/2'].map((index) =>
    workerProcess(
      ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', index, '--shard-ttl', '1h', '--shard-wait', '1h'],
      f.env,
    ),
  );
  t.after(() => workers.forEach((w) => w.child.kill('SIGKILL')));
  // Read again until wave 1 ended everywhere (told as waiting, or as parked): its analysis then waits
  // 2 minutes between its rounds.
  let read: Awaited<ReturnType<typeof f.cli>>;
  for (;;) {
    read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
    if (read.report?.parked || read.report?.merged?.underWay?.waitingFor) break;
    const gone = workers.find((w) => w.child.exitCode !== null);
    if (gone) assert.fail(`a worker ended before the analysis's interval: ${(await gone.done).out}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(read.code, 1, read.stdout + read.stderr);
  const report = read.report!;
  assert.equal(report.outcome, 'under-way');
  assert.equal(report.parked, null);
  assert.equal(report.merged?.underWay?.waitingFor, 'the analysis after wave 1 and its verdict');
  assert.deepEqual(report.merged?.underWay?.notStarted, ['site-0002', 'site-0003', 'site-0004']);
  assert.deepEqual(
    report.rollout?.waves.map((w) => w.outcome),
    ['under-way', 'not-started'],
  );
  assert.ok(
    report.steps
      .filter((s) => s.matrix?.site !== 'site-0001' && s.round === null)
      .every((s) => s.error?.message === 'not started yet: the run is under way at wave 1'),
    JSON.stringify(report.steps.map((s) => s.error?.message ?? s.outcome)),
  );
  assert.match(
    read.stdout,
    /^⋯ the run is under way at wave 1: waiting for the analysis after wave 1 and its verdict; not started yet: site-0002, site-0003, site-0004;/m,
  );
});

test("a rollout whose workers were killed after its last wave's sites ended, before that wave's verdict: parked for the verdict, not for an analysis that never runs after the last wave", async (t) => {
  const f = await shardFleet(
    t,
    2,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], count: 1, interval: 2m }',
  );
  const run = (await f.shard('--shards', '1', '--assign', 'queue')).run;
  // On a simulated clock: the analysis's round waits out the monitoring's lag in no time.
  const done = await runCli(
    ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', '1/1', '--shard-ttl', '1h'],
    {
      env: f.env,
      clock: simulatedClock(),
    },
  );
  assert.equal(done.code, 0, done.stdout + done.stderr);
  // What a worker killed between the last site's end and its verdict leaves: the wave's log whole, no verdict.
  rmSync(join(f.store, 'shards', run, 'waves', '2', 'verdict'));
  const read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(read.report?.parked?.wave, 2, read.stdout + read.stderr);
  assert.equal(read.report?.parked?.reason, "wave 2's verdict");
  assert.doesNotMatch(read.stdout, /analysis after wave 2/);
});

test('a site whose worker reads its Engines before its update (held at the server), the update not recorded as started: under way, not "not started yet"', async (t) => {
  const { f, run, worker, release } = await heldRun(t, 3, 1, { what: 'engines' });
  // Read again until the site's journal is in the store (its run record goes up as the site starts):
  // before, the site has no step recorded at all, and says that.
  let ended = false;
  void worker.then(() => (ended = true));
  let during: Awaited<ReturnType<typeof f.cli>>;
  for (let tries = 1; ; tries++) {
    during = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
    if (during.report?.merged?.reports.some((r) => r.limitedTo === 'site=site-0002')) break;
    if (tries === 2000) assert.fail(`site-0002's journal never reached the store: ${during.stdout}`);
    assert.match(
      during.report?.steps.find((s) => s.matrix?.site === 'site-0002' && s.id === 'update')?.error?.message ?? '',
      /; no step of it recorded yet$/,
    );
    if (ended) assert.fail(`the worker ended with its site held: ${(await worker).stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(during.code, 1, during.stdout + during.stderr);
  const report = during.report!;
  assert.equal(report.outcome, 'under-way');
  assert.deepEqual(report.merged?.underWay?.sites, ['site-0002']);
  assert.deepEqual(report.merged?.noReport, []);
  const update = report.steps.find((s) => s.matrix?.site === 'site-0002' && s.id === 'update')!;
  assert.match(
    update.error!.message,
    /^under way when this report was read: shard 1\/1 holds site-0002 \(its lease until \S+\); this step is not recorded as started yet$/,
  );
  // Its step after it is not started yet, its worker holding the site.
  const alerts = report.steps.find((s) => s.matrix?.site === 'site-0002' && s.id === 'alerts')!;
  assert.match(alerts.error!.message, /^not started yet: shard 1\/1 holds site-0002 \(its lease until \S+\)$/);
  assert.equal(report.counts.inDoubt, 0);
  release();
  assert.equal((await worker).code, 0);
});

test('a rollout read while a worker waits at the barrier for sites of a shard no worker runs: under way, saying which sites it waits for, not a failure with nothing said of the worker', async (t) => {
  const f = await shardFleet(
    t,
    8,
    '  over: site\n  waves: [[site-0001, site-0002, site-0003, site-0004], rest]\n  max-failures: 1',
  );
  const wave1 = ['site-0001', 'site-0002', 'site-0003', 'site-0004'];
  const mine = shardOf('site-0001', 2);
  const own = wave1.filter((s) => shardOf(s, 2) === mine);
  const others = wave1.filter((s) => shardOf(s, 2) !== mine);
  assert.ok(others.length > 0, 'a split this test can use');
  // One of the waiting worker's sites fails, within the wave's budget.
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: own[0] });
  const run = (await f.shard('--shards', '2')).run;
  const waiting = f.worker(run, `${mine + 1}/2`, '--shard-ttl', '1h', '--shard-wait', '1h');
  // Until its wave-1 sites ended: it waits at the barrier for the other shard's.
  const ended = (s: string) => existsSync(join(f.store, 'shards', run, 'sites', `s-${s}`));
  let gone = false;
  void waiting.then(() => (gone = true));
  while (!own.every(ended) && !gone) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(!gone, `the worker ended before waiting at the barrier: ${gone && (await waiting).stdout}`);
  const read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  // The other shard's worker runs them: the wave ends, and both go on to the end (before any
  // assertion: the waiting worker would wait an hour).
  const other = await f.worker(run, `${2 - mine}/2`, '--shard-wait', '1h');
  const first = await waiting;
  assert.equal(read.code, 1, read.stdout + read.stderr);
  assert.equal(read.report?.outcome, 'under-way');
  const waitsFor = `the sites of wave 1 that no worker running holds: ${others.join(', ')} (run their shards)`;
  assert.equal(read.report?.merged?.underWay?.waitingFor, waitsFor);
  assert.match(
    read.stdout,
    new RegExp(`^⋯ the run is under way at wave 1: waiting for ${waitsFor.replace(/[()]/g, '\\$&')};`, 'm'),
  );
  assert.equal(other.code, 0, other.stdout + other.stderr);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.deepEqual(Object.keys(f.applied('/update/system')).length, 7, 'every site but the failed one updated once');
});

test("a queue run read once a worker stopped (SIGTERM) in a site's retry wait while another waits at the barrier: under way, that worker taking the site over, not 'stopped, no worker running it'", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 1');
  retryingUpdate(f);
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  const workers = ['1/2', '2/2'].map((index) =>
    workerProcess(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', index, '--shard-ttl', '20s'], f.env),
  );
  t.after(() => workers.forEach((w) => w.child.kill('SIGKILL')));
  // The worker holding site-0001 waits to retry its update; the other ended site-0002 and waits at the barrier.
  const outs = ['', ''];
  const holder = await new Promise<number>((resolve, reject) =>
    workers.forEach((w, i) => {
      w.child.on('exit', () => reject(new Error(`a worker ended first: ${outs[i]}`)));
      w.child.stdout!.on('data', (chunk) => {
        outs[i] += chunk;
        if (/retrying in/.test(outs[i]!)) resolve(i);
      });
    }),
  );
  const other = 1 - holder;
  while (!existsSync(join(f.store, 'shards', run, 'sites', 's-site-0002')))
    await new Promise((resolve) => setTimeout(resolve, 50));
  workers[holder]!.child.kill('SIGTERM');
  assert.equal((await workers[holder]!.done).code, 143);
  const read = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const done = await workers[other]!.done;
  assert.equal(read.code, 1, read.stdout + read.stderr);
  assert.equal(read.report?.outcome, 'under-way', read.stdout);
  assert.doesNotMatch(read.stdout, /no worker is running it/);
  const underWay = read.report?.merged?.underWay;
  assert.ok(
    underWay?.sites.includes('site-0001') ||
      underWay?.waitingFor ===
        'a worker to take over the sites of wave 1 whose worker is gone: site-0001 (once their leases lapsed)',
    JSON.stringify(underWay),
  );
  // The other worker took it over: verify read the update as applied, sent nothing again.
  assert.equal(done.code, 0, done.out);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  // Its doubt settled by verify (applied), the site succeeded: its hint does not say it counts as failed.
  const after = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(after.code, 0, after.stdout + after.stderr);
  const settled = after.report?.steps.find((s) => s.matrix?.site === 'site-0001' && s.uses === 'update/system');
  assert.equal(settled?.decision?.verdict, 'applied', JSON.stringify(settled));
  assert.doesNotMatch(settled?.error?.hint ?? '', /counts as failed/);
});
