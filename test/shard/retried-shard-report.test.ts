// A shard's index run again (a CI job retried: GitLab keeps only the retried job's artifacts) after
// its first attempt ended some of its sites and was killed before the next. Before, the retried
// attempt's JSON report held only the sites it ran itself, so report --merge of the workers' files
// said of the sites the first attempt ended "no report: its job died or never ran", and failed the
// fleet. Now the retried attempt's report holds them too, read from the store (each site's terminal
// record and journal, as report --merge --store reads them), marked as ended by an earlier attempt:
// their steps as that attempt recorded them, not run (nor their writes sent) by this one.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { shardKeys, shardOf } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet, sitesOf, workerProcess } from './helpers.ts';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Report;
/** Each instance as step, site and outcome: what a merged report holds, timings aside. */
const instances = (r: Report) =>
  r.steps.map((s) => `${s.step} ${String(s.matrix?.site)} ${s.outcome}${s.inDoubt ? ' in doubt' : ''}`).sort();
const ofSite = (r: Report, site: string) => r.steps.filter((s) => s.matrix?.site === site);
/** The sites a worker's report says an earlier attempt of its index ended. */
const endedEarlier = (r: Report) => (r.shard as { endedEarlier?: unknown } | null)?.endedEarlier;

/**
 * A fleet whose `held` site's first request (its update's read of the engines, before any write)
 * is held at the gateway until the test ends: a worker that reaches it is killed there.
 */
async function fleetHolding(t: TestContext, n: number, shards: number, held: string, options = {}) {
  let reached: () => void = () => undefined;
  const atHeld = new Promise<void>((resolve) => (reached = resolve));
  let release: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => (release = resolve));
  t.after(() => release());
  let once = false;
  const f = await shardFleet(
    t,
    n,
    `  over: site\n  waves: [rest]\n  max-failures: 1`,
    {
      before: (_method, path) => {
        if (once || !path.startsWith(`/sites/${held}/`)) return;
        once = true;
        reached();
        return holding;
      },
    },
    options,
  );
  const run = (await f.shard('--shards', String(shards))).run;
  return { f, run, atHeld };
}

/** Attempt 1 of shard `spec`: a process of the CLI killed (SIGKILL) once `ended`'s record is in the store and it reached the held site. */
async function killedAttempt(
  t: TestContext,
  f: Awaited<ReturnType<typeof shardFleet>>,
  run: string,
  spec: string,
  atHeld: Promise<void>,
  ended: string,
) {
  const args = ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--shard-ttl', '3s'];
  const first = workerProcess(args, f.env);
  t.after(() => first.child.kill('SIGKILL'));
  await atHeld;
  const record = join(f.store, shardKeys(run).site(ended));
  while (!existsSync(record)) await new Promise((resolve) => setTimeout(resolve, 50));
  first.child.kill('SIGKILL');
  const killed = await first.done;
  assert.equal(killed.code, null, killed.out);
  return killed;
}

test("a retried shard's report holds the sites its killed first attempt ended, marked so: the merge of the retried job's file alone names every site, succeeds", async (t) => {
  const { f, run, atHeld } = await fleetHolding(t, 3, 1, 'site-0002');
  // Attempt 1 ends site-0001 and is killed at site-0002's first request (nothing of it sent): no file.
  await killedAttempt(t, f, run, '1/1', atHeld, 'site-0001');
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 });

  // Attempt 2 (the retried job), once attempt 1's lease lapsed: it resumes site-0002 and runs site-0003.
  const [json, summary, junit] = ['second.json', 'second.md', 'second.xml'].map((n) => join(f.dir, n)) as [
    string,
    string,
    string,
  ];
  const again = await runCli(
    [
      'run',
      f.file,
      '--store',
      f.storeUrl,
      '--run',
      run,
      '--shard',
      '1/1',
      '--shard-ttl',
      '1h',
      '--report-json',
      json,
      '--summary',
      summary,
      '--junit',
      junit,
    ],
    { env: f.env },
  );
  const out = again.stdout + again.stderr;
  assert.equal(again.code, 0, out);
  assert.deepEqual(
    f.applied('/update/system'),
    { 'site-0001': 1, 'site-0002': 1, 'site-0003': 1 },
    'each site updated once: site-0001 not again',
  );
  // The merge of the retried job's file alone (GitLab kept only it) names every site: the fleet succeeded.
  const merged = join(f.dir, 'merged.json');
  const r = await runCli(['report', '--merge', json, '--expect-shards', '1', '--report-json', merged]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /no report/);
  assert.equal(read(merged).outcome, 'success');
  assert.deepEqual(read(merged).merged?.noReport, []);
  const stored = join(f.dir, 'stored.json');
  const fromStore = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', stored], {
    env: f.env,
  });
  assert.equal(fromStore.code, 0, fromStore.stdout + fromStore.stderr);
  assert.deepEqual(instances(read(merged)), instances(read(stored)));
  assert.equal(read(merged).steps.length, 6);
  // It did not run site-0001, and does not say it did: no step of it started here.
  assert.doesNotMatch(out, /▶ \[\d\/2\] [^\n]*site-0001/);
  assert.match(out, /site site-0001 \(wave 1\): success, in an earlier attempt of this shard/);

  const second = read(json);
  assert.equal(second.outcome, 'success');
  assert.equal(second.shard?.attempt, 2);
  assert.deepEqual(second.shard?.sites, ['site-0002', 'site-0003'], 'the sites it ran or resumed');
  assert.deepEqual(endedEarlier(second), ['site-0001']);
  // site-0001's steps as attempt 1 recorded them, each done in that earlier run, its write not sent by this one.
  const earlier = ofSite(second, 'site-0001');
  assert.deepEqual(
    earlier.map((s) => [s.id, s.outcome, s.resume, s.inDoubt]),
    [
      ['update', 'success', 'earlier-run', null],
      ['alerts', 'success', 'earlier-run', null],
    ],
  );
  for (const s of earlier) assert.ok(s.earlierRunAt !== null && s.startedAt !== null, JSON.stringify(s));
  for (const site of ['site-0002', 'site-0003'])
    for (const s of ofSite(second, site)) assert.notEqual(s.resume, 'earlier-run', `${site}: run by this attempt`);
  // Its Markdown and JUnit say so, not that it ran them now.
  const md = readFileSync(summary, 'utf8');
  assert.match(md, /Ended by an earlier attempt of shard 1\/1[^\n]*: site-0001/);
  assert.match(md, /\| Update site-0001 \(earlier run\) \|/);
  assert.doesNotMatch(md, /\| Update site-0002 \(earlier run\) \|/);
  const xml = readFileSync(junit, 'utf8');
  assert.match(xml, /<property name="ended earlier" value="Ended by an earlier attempt of shard 1\/1[^"]*site-0001"/);
  assert.match(xml, /<testcase name="update \(site=site-0001\)"[^>]*>\s*<system-out>[^<]*earlier/);
});

test("a retried shard's report holds a site its killed first attempt ended failed (within the budget): merged with the other shard's file, it fails as that site, not as 'no report'", async (t) => {
  // Four sites over two shards: the failing one and the held one shard A's, the other shard's with at least one.
  const names = sitesOf(4);
  const [a, b] = [0, 1].map((i) => names.filter((s) => shardOf(s, 2) === i)).sort((x, y) => y.length - x.length) as [
    string[],
    string[],
  ];
  assert.ok(a.length >= 2 && b.length >= 1, `a split of ${names.join(', ')} this test can use`);
  const [failing, held] = a as [string, string];
  const { f, run, atHeld } = await fleetHolding(t, 4, 2, held, {
    faults: [`POST /api/devops/v1/update/system site=${failing} status=500`],
  });
  const spec = `${shardOf(failing, 2) + 1}/2`;
  const other = `${shardOf(b[0]!, 2) + 1}/2`;
  await killedAttempt(t, f, run, spec, atHeld, failing);

  const [json, rest] = ['second.json', 'other.json'].map((n) => join(f.dir, n)) as [string, string];
  const worker = (s: string, file: string) =>
    runCli(
      ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', s, '--shard-ttl', '1h', '--report-json', file],
      { env: f.env },
    );
  const [again, others] = await Promise.all([worker(spec, json), worker(other, rest)]);
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.match(
    again.stdout,
    new RegExp(`✖ site ${failing} \\(wave 1\\): failure, in an earlier attempt of this shard`),
  );
  assert.equal(others.code, 0, others.stdout + others.stderr);
  const posts = f.sites
    .started()
    .get(failing)!
    .requests.filter((q) => q.method === 'POST' && q.path.endsWith('/update/system'));
  assert.equal(posts.length, 1, 'the failed update was not sent again');

  const merged = join(f.dir, 'merged.json');
  const r = await runCli(['report', '--merge', json, rest, '--expect-shards', '2', '--report-json', merged]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /no report/);
  assert.deepEqual(read(merged).merged?.noReport, []);
  assert.equal(read(merged).outcome, 'failure');
  assert.deepEqual(
    ofSite(read(merged), failing).map((s) => s.outcome),
    ['failure', 'skipped'],
  );
  const stored = join(f.dir, 'stored.json');
  await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', stored], { env: f.env });
  assert.deepEqual(instances(read(merged)), instances(read(stored)));
  const second = read(json);
  assert.equal(second.outcome, 'failure');
  assert.deepEqual(endedEarlier(second), [failing]);
  const [update] = ofSite(second, failing);
  assert.deepEqual([update?.outcome, update?.resume], ['failure', 'earlier-run']);
});
