// A run parked for its window (exit 75) is "parked" in every report made of it later, never
// "success": the report of its journal (report --store URL --run ID, report JOURNAL) and the fleet's
// merge of the jobs' reports (report --merge), one job per site, one of them parked.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { PARKED, parkFleet, runIdOf } from '../park/helpers.ts';
import { runCli } from '../helpers/cli.ts';
import type { Report } from '../../src/report/index.ts';

/** Two sites, each a job (--only site=X); site b may be written 02:00-03:00 UTC only, and it is noon. */
async function twoSites(t: TestContext) {
  const clock = simulatedClock(Date.parse('2026-12-05T12:00:00Z'));
  const sites = new Sites({ now: clock.now });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-parked-reports-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'win.yml');
  writeFileSync(
    file,
    `version: 1
name: Windowed fleet
servers:
  a: { url: "${running.url}/sites/a", username: admin, password: admin }
  b: { url: "${running.url}/sites/b", username: admin, password: admin }
windows:
  b-night: { cron: '0 2 * * *', duration: 1h, zone: UTC, matrix: { site: [b] } }
steps:
  - name: Clear (\${{ matrix.site }})
    uses: transaction-log/clear
    matrix: { site: [a, b] }
    server: \${{ matrix.site }}
    expected: 10m
`,
  );
  const job = (site: string) =>
    runCli(
      ['run', file, '--only', `site=${site}`, '--store', `file://${store}`, '--report-json', join(dir, `${site}.json`)],
      { clock },
    );
  return { dir, clock, job, sites, storeUrl: `file://${store}` };
}

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;

test("the report of a parked run's journal says parked, as the run's own report did, never success", async (t) => {
  const f = await twoSites(t);
  const b = await f.job('b');
  assert.equal(b.code, PARKED, b.stdout + b.stderr);
  assert.equal(read(join(f.dir, 'b.json')).parked?.for, 'window');
  const id = runIdOf(b.stdout)!;
  const again = await runCli(
    [
      'report',
      '--store',
      f.storeUrl,
      '--run',
      id,
      '--report-json',
      join(f.dir, 'again.json'),
      '--summary',
      join(f.dir, 'again.md'),
    ],
    { clock: f.clock },
  );
  assert.equal(again.code, 0, again.stdout + again.stderr);
  const report = read(join(f.dir, 'again.json'));
  assert.equal(report.parked?.for, 'window', 'the journal holds the park record');
  assert.equal(report.parked?.until, '2026-12-06T02:00:00.000Z');
  assert.match(readFileSync(join(f.dir, 'again.md'), 'utf8'), /^## ⏸️ Windowed fleet: parked$/m);
  // The last line as the run's own: parked, what ran, what it waits for.
  assert.match(again.stdout, /: parked in .*; waiting for the next window "Clear \(b\)" fits in/);
});

test("report --merge of a fleet's jobs, one of them parked for its window, says parked, not success", async (t) => {
  const f = await twoSites(t);
  const a = await f.job('a');
  assert.equal(a.code, 0, a.stdout + a.stderr);
  const b = await f.job('b');
  assert.equal(b.code, PARKED, b.stdout + b.stderr);
  const out = (name: string) => join(f.dir, name);
  const merged = await runCli([
    'report',
    '--merge',
    out('a.json'),
    out('b.json'),
    '--report-json',
    out('m.json'),
    '--summary',
    out('m.md'),
    '--junit',
    out('m.xml'),
    '--html',
    out('m.html'),
  ]);
  const report = read(out('m.json'));
  assert.equal(report.parked?.for, 'window', 'the merged report keeps the park');
  assert.equal(report.parked?.until, '2026-12-06T02:00:00.000Z');
  const summary = readFileSync(out('m.md'), 'utf8');
  assert.match(summary, /^## ⏸️ Windowed fleet: parked$/m);
  assert.match(summary, /^\| ⏸️ \| site=b \| parked \|/m, 'the job that parked is told as parked');
  assert.doesNotMatch(summary, /continue-on-error let them pass/, 'no step continued on error');
  assert.match(readFileSync(out('m.html'), 'utf8'), /<h1>Windowed fleet: parked<\/h1>/);
  assert.match(
    readFileSync(out('m.xml'), 'utf8'),
    /<property name="parked" value="parked: waiting for the next window/,
  );
  assert.match(merged.stdout, /site=b: parked/);
  // Nothing failed: parked is neither green nor red, as the run's own report exits.
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
});

test("report --merge of a fleet in which one job failed and another parked is headed failure, the parked job's row parked", async (t) => {
  const f = await twoSites(t);
  // Site a refuses its write: its job fails.
  f.sites.faults.add({ path: '/api/devops/v1/transaction-log/clear', site: 'a', status: 403 });
  const a = await f.job('a');
  assert.equal(a.code, 1, a.stdout + a.stderr);
  assert.equal((await f.job('b')).code, PARKED);
  const merged = await runCli([
    'report',
    '--merge',
    join(f.dir, 'a.json'),
    join(f.dir, 'b.json'),
    '--summary',
    join(f.dir, 'm.md'),
  ]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  const summary = readFileSync(join(f.dir, 'm.md'), 'utf8');
  assert.match(summary, /^## ❌ Windowed fleet: failure$/m, 'a failed job is not hidden under parked');
  assert.match(summary, /^\| ❌ \| site=a \| failure \|/m);
  assert.match(summary, /^\| ⏸️ \| site=b \| parked \|/m);
});

test("report --merge of a fleet whose only troubled job parked for a decision is headed parked, its park kept, as that job's own report", async (t) => {
  // Each site a job (--only); site-002's write fails once and its rollout parks for a decision.
  const f = await parkFleet(t, 2, `  over: site\n  waves: [[site-001], rest]`, 'on-failure: decide');
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, times: 1, site: 'site-002' });
  const a = await f.run('--only', 'site=site-001');
  assert.equal(a.code, 0, a.stdout + a.stderr);
  const b = await f.run('--only', 'site=site-002');
  assert.equal(b.code, PARKED, b.stdout + b.stderr);
  assert.equal(b.report!.parked?.for, 'decision');
  const merged = await runCli([
    'report',
    '--merge',
    join(f.dir, 'report-1.json'),
    join(f.dir, 'report-2.json'),
    '--report-json',
    join(f.dir, 'm.json'),
    '--summary',
    join(f.dir, 'm.md'),
  ]);
  const summary = readFileSync(join(f.dir, 'm.md'), 'utf8');
  assert.match(summary, /^\| ⏸️ \| site=site-002 \| parked \|/m);
  assert.equal(
    read(join(f.dir, 'm.json')).parked?.for,
    'decision',
    'the fleet waits for the decision its job waits for',
  );
  assert.match(
    summary,
    /^## ⏸️ Fleet release: parked$/m,
    'no job but the parked one failed: the fleet is parked, as its job',
  );
  // What ran so far failed (the write the decision is about): not green, as the job's report of its journal exits.
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
});

test("report --merge of a fleet's jobs, one of them parked for its rollout's bake, says to continue that job's run, not to run workers again", async (t) => {
  const f = await parkFleet(t, 3, `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`);
  // Two jobs: one of the rollout's first two sites (it bakes after wave 1), one of the third.
  const a = await f.run('--skip', 'site=site-003');
  assert.equal(a.code, PARKED, a.stdout + a.stderr);
  assert.match(a.stdout, /--continue /);
  const b = await f.run('--only', 'site=site-003');
  assert.equal(b.code, 0, b.stdout + b.stderr);
  const merged = await runCli([
    'report',
    '--merge',
    join(f.dir, 'report-1.json'),
    join(f.dir, 'report-2.json'),
    '--summary',
    join(f.dir, 'm.md'),
  ]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  const summary = readFileSync(join(f.dir, 'm.md'), 'utf8');
  const note = /^\*\*parked: .*\*\*$/m.exec(summary)?.[0] ?? '';
  assert.match(note, /the 12h bake after wave 1/);
  // A job is no sharded run's worker: running its command again starts another run, wave 1 sent again.
  assert.doesNotMatch(note, /run the workers again/, note);
  assert.match(note, /go on with enginectl run --continue at or after 20\d\d-/, note);
});

test('report --merge of jobs parked for a bake and for a decision: the fleet waits for the decision, and says to go on once decided', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`,
    'on-failure: decide',
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, times: 1, site: 'site-003' });
  // One job bakes after its first wave; the other's write fails and it parks for a decision.
  const a = await f.run('--skip', 'site=site-003');
  assert.equal(a.code, PARKED, a.stdout + a.stderr);
  assert.equal(a.report!.parked?.for, 'bake');
  const b = await f.run('--only', 'site=site-003');
  assert.equal(b.code, PARKED, b.stdout + b.stderr);
  assert.equal(b.report!.parked?.for, 'decision');
  await runCli([
    'report',
    '--merge',
    join(f.dir, 'report-1.json'),
    join(f.dir, 'report-2.json'),
    '--report-json',
    join(f.dir, 'm.json'),
    '--summary',
    join(f.dir, 'm.md'),
  ]);
  const parked = read(join(f.dir, 'm.json')).parked;
  assert.equal(parked?.for, 'decision', 'a decision no time brings: the fleet waits for it');
  assert.equal(parked?.until, null);
  const note = /^\*\*parked: .*\*\*$/m.exec(readFileSync(join(f.dir, 'm.md'), 'utf8'))?.[0] ?? '';
  assert.match(note, /once decided/, note);
  assert.doesNotMatch(note, /at or after its end/, note);
});

test('report --merge of a job parked for its bake at wave 1 and one for a decision at wave 2: the fleet waits for the decision, at its wave', async (t) => {
  const f = await parkFleet(
    t,
    4,
    `  over: site\n  waves: [[site-001], [site-002], rest]\n  analysis: { bake: 12h }`,
    'on-failure: decide',
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, times: 1, site: 'site-003' });
  // The decision's job: its bake after wave 1 passes, then its write at wave 2 fails and it parks for a decision.
  const b = await f.run('--only', 'site=site-001', '--only', 'site=site-003');
  assert.equal(b.code, PARKED, b.stdout + b.stderr);
  await f.clock.sleep(13 * 3_600_000, new AbortController().signal);
  const decision = await f.run('--continue', runIdOf(b.stdout)!, '--only', 'site=site-001', '--only', 'site=site-003');
  assert.equal(decision.code, PARKED, decision.stdout + decision.stderr);
  assert.deepEqual([decision.report!.parked?.for, decision.report!.parked?.wave], ['decision', 2]);
  // The bake's job, listed first: it bakes after its wave 1.
  const a = await f.run('--only', 'site=site-002', '--only', 'site=site-004');
  assert.equal(a.code, PARKED, a.stdout + a.stderr);
  assert.deepEqual([a.report!.parked?.for, a.report!.parked?.wave], ['bake', 1]);
  await runCli([
    'report',
    '--merge',
    join(f.dir, 'report-3.json'),
    join(f.dir, 'report-2.json'),
    '--report-json',
    join(f.dir, 'm.json'),
  ]);
  const parked = read(join(f.dir, 'm.json')).parked;
  assert.deepEqual([parked?.for, parked?.wave, parked?.until], ['decision', 2, null]);
});
