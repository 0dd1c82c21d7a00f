// The workers' own reports of a sharded run merged without the run store (report --merge F...
// --expect-shards N): each worker's JSON report says which shard of which run it is, a worker
// that ran no site writes one too, a missing shard and the sites no report holds fail the fleet,
// and a site one attempt left (interrupted mid-call) and the next resumed is the resumer's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Report } from '../../src/report/index.ts';
import { shardOf } from '../../src/shard/manifest.ts';
import { runCli } from '../helpers/cli.ts';
import { shardFleet } from './helpers.ts';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Report;
/** Each instance as step, site and outcome: what a merged report holds, timings aside. */
const instances = (r: Report) =>
  r.steps.map((s) => `${s.step} ${String(s.matrix?.site)} ${s.outcome}${s.inDoubt ? ' in doubt' : ''}`).sort();

test("report --merge --expect-shards: the workers' own reports, a worker of no site included, make the store's one result; a missing shard and its sites fail it", async (t) => {
  const f = await shardFleet(t, 5, '  over: site\n  waves: [[site-0001], rest]');
  const run = (await f.shard('--shards', '6')).run;
  const files = Array.from({ length: 6 }, (_, i) => join(f.dir, `shard-${i + 1}.json`));
  const workers = await Promise.all(
    files.map((json, i) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', `${i + 1}/6`, '--report-json', json], {
        env: f.env,
      }),
    ),
  );
  for (const w of workers) assert.equal(w.code, 0, w.stdout + w.stderr);
  const owned = (i: number) => f.names.filter((s) => shardOf(s, 6) === i);
  const empty = [0, 1, 2, 3, 4, 5].find((i) => owned(i).length === 0)!;
  const busy = [0, 1, 2, 3, 4, 5].find((i) => owned(i).length > 0)!;
  assert.notEqual(empty, undefined, 'five sites over six shards leave one empty');
  // A worker that ran no site says so in a report of its own.
  const none = read(files[empty]!);
  assert.deepEqual(none.shard, {
    run,
    index: empty + 1,
    of: 6,
    over: 'site',
    end: 'done',
    sites: [],
    left: [],
    endedEarlier: [],
    attempt: 1,
    assign: 'static',
  });
  assert.deepEqual(none.steps, []);
  assert.equal(none.outcome, 'success');
  assert.deepEqual(read(files[busy]!).shard?.sites, owned(busy));

  const merged = join(f.dir, 'merged.json');
  const all = await runCli(['report', '--merge', ...files, '--expect-shards', '6', '--report-json', merged]);
  assert.equal(all.code, 0, all.stdout + all.stderr);
  const stored = join(f.dir, 'stored.json');
  const fromStore = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', stored], {
    env: f.env,
  });
  assert.equal(fromStore.code, 0, fromStore.stdout + fromStore.stderr);
  // The store without the run: asked for the run's id, not for a report.
  const noRun = await runCli(['report', '--merge', '--store', f.storeUrl], { env: f.env });
  assert.equal(noRun.code, 2, noRun.stdout + noRun.stderr);
  assert.match(noRun.stderr, /which sharded run\? give --run ID \(or ENGINECTL_RUN\)/);
  // ENGINECTL_RUN names it, as the workers read it (GitLab's dotenv, a Job's env): the same report.
  const fromEnv = join(f.dir, 'from-env.json');
  const byEnv = await runCli(['report', '--merge', '--store', f.storeUrl, '--report-json', fromEnv], {
    env: { ...f.env, ENGINECTL_RUN: run },
  });
  assert.equal(byEnv.code, 0, byEnv.stdout + byEnv.stderr);
  assert.deepEqual(instances(read(fromEnv)), instances(read(stored)));
  assert.deepEqual(instances(read(merged)), instances(read(stored)));
  // The rollout, as the workers' reports tell it (the verdicts at their end), is the store's.
  assert.deepEqual(read(merged).rollout, read(stored).rollout);
  assert.deepEqual(
    read(merged).rollout?.waves.map((w) => w.outcome),
    ['done', 'done'],
  );
  assert.equal(read(merged).steps.length, 10, 'two steps of each of five sites, once');
  assert.match(all.stdout, new RegExp(`^✔ shard ${busy + 1}/6: success`, 'm'));

  // A busy worker's report lost: its shard and each of its sites are named, and the fleet fails.
  const lost = await runCli(['report', '--merge', ...files.filter((_, i) => i !== busy), '--expect-shards', '6']);
  assert.equal(lost.code, 1, lost.stdout + lost.stderr);
  assert.match(lost.stdout, new RegExp(`^✖ shard ${busy + 1}/6: no report`, 'm'));
  for (const site of owned(busy)) assert.match(lost.stdout, new RegExp(`^✖ site=${site}: no report`, 'm'));
  // The empty worker's report lost: nothing of the fleet is missing but that worker.
  const quiet = await runCli(['report', '--merge', ...files.filter((_, i) => i !== empty), '--expect-shards', '6']);
  assert.equal(quiet.code, 1, quiet.stdout + quiet.stderr);
  assert.match(quiet.stdout, new RegExp(`^✖ shard ${empty + 1}/6: no report`, 'm'));
  assert.doesNotMatch(quiet.stdout, /site=\S+: no report/);

  // Another count, and a report that is no worker's, are refused, saying what to give.
  const other = await runCli(['report', '--merge', ...files, '--expect-shards', '4']);
  assert.equal(other.code, 2, other.stdout + other.stderr);
  assert.match(other.stderr, /is shard \d\/6: run \S+ was planned with 6 shards/);
  assert.match(other.stderr, /--expect-shards 6/);
  const plain = join(f.dir, 'plain.json');
  await runCli(['run', f.file, '--emulator', '--only', 'site=site-0001', '--report-json', plain], { env: f.env });
  const mixed = await runCli(['report', '--merge', files[0]!, plain, '--expect-shards', '6']);
  assert.equal(mixed.code, 2, mixed.stdout + mixed.stderr);
  assert.match(mixed.stderr, /plain\.json is not the report of a sharded run's worker/);
  const withStore = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--expect-shards', '6'], {
    env: f.env,
  });
  assert.equal(withStore.code, 2);
  assert.match(withStore.stderr, /the manifest knows the shards/);
});

test("a site one attempt left mid-call and the next attempt resumed is the resumer's in the merged files: once, not refused as an overlap; the fleet succeeds", async (t) => {
  const stop = new AbortController();
  let cut: string | undefined;
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]', {
    // The first system update of shard 1's second site is applied, and its worker is interrupted before the answer reaches it.
    answered: (method, path) => {
      if (cut === undefined && method === 'POST' && path.endsWith('/update/system') && path.includes(target)) {
        cut = target;
        stop.abort();
      }
    },
  });
  const run = (await f.shard('--shards', '2')).run;
  const mine = f.names.filter((s) => shardOf(s, 2) === 0);
  const other = f.names.filter((s) => shardOf(s, 2) === 1);
  assert.ok(mine.length >= 2 && other.length >= 1, `a split of ${f.names.join(', ')} this test can use`);
  const target = mine[1]!;
  const args = (n: string, json: string) => [
    'run',
    f.file,
    '--store',
    f.storeUrl,
    '--run',
    run,
    '--shard',
    n,
    '--report-json',
    json,
  ];
  const [first, second, rest] = ['first', 'second', 'other'].map((n) => join(f.dir, `${n}.json`)) as [
    string,
    string,
    string,
  ];
  const cutShort = await runCli(args('1/2', first), { env: f.env, signal: stop.signal });
  assert.equal(cut, target);
  assert.equal(cutShort.code, 130, cutShort.stdout + cutShort.stderr);
  assert.deepEqual(read(first).shard?.left, [target]);
  assert.equal(read(first).shard?.end, 'cancelled');
  // The next attempt of shard 1 and shard 2's worker, together (each waits at the barrier for the other's sites).
  const [again, others] = await Promise.all([
    runCli(args('1/2', second), { env: f.env }),
    runCli(args('2/2', rest), { env: f.env }),
  ]);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  // Verify decided the call it took over, not an operator: no line says one did.
  assert.match(again.stdout, /verify: "Update site-\d+": applied/);
  assert.doesNotMatch(again.stdout, /by the operator/);
  assert.equal(others.code, 0, others.stdout + others.stderr);
  assert.equal(f.applied('/update/system')[target], 1, 'the update cut short was read as applied, not sent again');

  const merged = join(f.dir, 'merged.json');
  const r = await runCli(['report', '--merge', first, second, rest, '--expect-shards', '2', '--report-json', merged]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = read(merged);
  assert.equal(report.outcome, 'success');
  const ofTarget = report.steps.filter((s) => s.matrix?.site === target);
  assert.equal(ofTarget.length, 2, 'each step of the site once');
  // The update as the resuming attempt has it (verify read it applied: not sent again), not as the one cut short left it (cancelled).
  const [update, alerts] = ofTarget;
  assert.equal(update!.decision?.verdict, 'applied', JSON.stringify(update));
  assert.equal(update!.outcome, 'skipped');
  assert.equal(alerts!.outcome, 'success');
  // The attempt cut short keeps its own row, as it ended.
  assert.match(r.stdout, /^✖ shard 1\/2: cancelled/m);
  assert.equal(report.steps.length, 8);
});

test("report --merge --expect-shards of a rollout halted at its canary: the workers' reports say where and why, and the sites the halt left unstarted are not 'no report'", async (t) => {
  const f = await shardFleet(t, 5, '  over: site\n  waves: [[site-0001], rest]');
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const run = (await f.shard('--shards', '2')).run;
  const files = [1, 2].map((i) => join(f.dir, `shard-${i}.json`));
  const workers = await Promise.all(
    files.map((json, i) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', `${i + 1}/2`, '--report-json', json], {
        env: f.env,
      }),
    ),
  );
  for (const w of workers) assert.equal(w.code, 1, w.stdout + w.stderr);
  const merged = join(f.dir, 'merged.json');
  const all = await runCli(['report', '--merge', ...files, '--expect-shards', '2', '--report-json', merged]);
  assert.equal(all.code, 1, all.stdout + all.stderr);
  assert.doesNotMatch(all.stdout, /site=\S+: no report/);
  assert.match(
    all.stdout,
    /^✖ the rollout halted at wave 1: 1 site\(s\) failed \(site-0001\), over the budget of 0; nothing is undone; not started: site-0002, site-0003, site-0004, site-0005$/m,
  );
  const stored = join(f.dir, 'stored.json');
  await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run, '--report-json', stored], { env: f.env });
  assert.deepEqual(read(merged).rollout, read(stored).rollout);
  assert.equal(read(merged).outcome, 'failure');
  // The canary's worker's file left out: the canary ran in it, unseen; it is not said to be not started.
  const canary = shardOf('site-0001', 2);
  const without = await runCli(['report', '--merge', files[1 - canary]!, '--expect-shards', '2']);
  assert.equal(without.code, 1, without.stdout + without.stderr);
  assert.match(without.stdout, new RegExp(`^✖ shard ${canary + 1}/2: no report`, 'm'));
  assert.match(
    without.stdout,
    /^✖ the rollout halted at wave 1: .*; nothing is undone; not started: site-0002, site-0003, site-0004, site-0005; in no report \(not started, or the missing shard's\): site-0001$/m,
  );

  // The sites of the halted wave itself that the spent budget left unstarted are not "no report" either.
  const g = await shardFleet(t, 3, '  over: site\n  waves: [rest]');
  g.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const one = (await g.shard('--shards', '1')).run;
  const file = join(g.dir, 'shard-1.json');
  const w = await runCli(
    ['run', g.file, '--store', g.storeUrl, '--run', one, '--shard', '1/1', '--report-json', file],
    {
      env: g.env,
    },
  );
  assert.equal(w.code, 1, w.stdout + w.stderr);
  const alone = await runCli(['report', '--merge', file, '--expect-shards', '1']);
  assert.equal(alone.code, 1, alone.stdout + alone.stderr);
  assert.doesNotMatch(alone.stdout, /no report/);
  assert.match(alone.stdout, /^✖ the rollout halted at wave 1: .*; not started: site-0002, site-0003$/m);
});

test("report --merge --expect-shards: a worker whose own sites all succeeded is a success though its report's rollout lists another shard's failure within the budget", async (t) => {
  const f = await shardFleet(
    t,
    6,
    '  over: site\n  waves: [[site-0001, site-0002, site-0003], rest]\n  max-failures: 1',
    undefined,
    {
      faults: ['POST /api/devops/v1/update/system site=site-0001 status=409'],
    },
  );
  const run = (await f.shard('--shards', '2')).run;
  const failing = shardOf('site-0001', 2);
  const clean = 1 - failing;
  assert.ok(
    f.names.some((s) => shardOf(s, 2) === clean),
    'the other shard has sites',
  );
  const files = [0, 1].map((i) => join(f.dir, `shard-${i + 1}.json`));
  const workers = await Promise.all(
    files.map((json, i) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', `${i + 1}/2`, '--report-json', json], {
        env: f.env,
      }),
    ),
  );
  assert.equal(workers[clean]!.code, 0, workers[clean]!.stdout + workers[clean]!.stderr);
  const merged = join(f.dir, 'merged.json');
  const all = await runCli(['report', '--merge', ...files, '--expect-shards', '2', '--report-json', merged]);
  assert.equal(all.code, 1, 'the fleet failed (site-0001)');
  const rows = read(merged).merged!.reports.map((r) => [r.limitedTo, r.outcome]);
  assert.deepEqual(rows[clean], [`shard ${clean + 1}/2`, 'success'], JSON.stringify(rows));
  assert.deepEqual(rows[failing], [`shard ${failing + 1}/2`, 'failure']);
});

test("report --merge --expect-shards of a static rollout halted mid-wave, a worker's file missing: a site its own shard's file shows it never started is not started; each site the missing shard may have run is 'no report', in the JSON too", async (t) => {
  // Shard 1 owns site-0002..0004 (wave 2); shard 2 owns site-0001 (the canary) and site-0005, site-0006, which fail.
  const a = ['site-0002', 'site-0003', 'site-0004'];
  const b = ['site-0005', 'site-0006'];
  let answeredA = 0;
  let release: () => void = () => undefined;
  const allOfA = new Promise<void>((resolve) => (release = resolve));
  t.after(() => release());
  let held = false;
  const f = await shardFleet(
    t,
    6,
    '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 0',
    {
      // Shard 2's first update of wave 2 (whichever it starts) waits until every update of shard 1 was answered.
      before: (method, path) => {
        if (method !== 'POST' || !path.endsWith('/update/system') || !b.some((s) => path.includes(`/${s}/`))) return;
        if (held) return;
        held = true;
        return allOfA;
      },
      answered: (method, path) => {
        if (method === 'POST' && path.endsWith('/update/system') && a.some((s) => path.includes(`/${s}/`)))
          if (++answeredA === a.length) release();
      },
    },
    { faults: b.map((s) => `POST /api/devops/v1/update/system site=${s} status=500`) },
  );
  for (const s of a) assert.equal(shardOf(s, 2), 0, `${s} is shard 1's`);
  for (const s of ['site-0001', ...b]) assert.equal(shardOf(s, 2), 1, `${s} is shard 2's`);
  const run = (await f.shard('--shards', '2')).run;
  const files = [1, 2].map((i) => join(f.dir, `shard-${i}.json`));
  const workers = await Promise.all(
    files.map((json, i) =>
      runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', `${i + 1}/2`, '--report-json', json], {
        env: f.env,
      }),
    ),
  );
  for (const w of workers) assert.equal(w.code, 1, w.stdout + w.stderr);
  assert.equal(read(files[1]!).shard?.assign, 'static');
  // Shard 2 started one of its wave-2 sites, which failed and spent the budget: the other never started.
  const ranB = read(files[1]!).shard!.sites.filter((s) => b.includes(s));
  assert.equal(ranB.length, 1, JSON.stringify(read(files[1]!).shard));
  const never = b.filter((s) => !ranB.includes(s));
  const stored = await runCli(['report', '--merge', '--store', f.storeUrl, '--run', run], { env: f.env });
  assert.match(stored.stdout, new RegExp(`^✖ the rollout halted at wave 2: .*; not started: ${never[0]}$`, 'm'));

  // Shard 1's file missing: its sites ran, unseen (no report, in the JSON too); shard 2's file shows what it never started.
  const json = join(f.dir, 'without-1.json');
  const without1 = await runCli(['report', '--merge', files[1]!, '--expect-shards', '2', '--report-json', json]);
  assert.equal(without1.code, 1, without1.stdout + without1.stderr);
  assert.match(
    without1.stdout,
    new RegExp(
      `^✖ the rollout halted at wave 2: .*; nothing is undone; not started: ${never[0]}; in no report \\(not started, or the missing shard's\\): ${a.join(', ')}$`,
      'm',
    ),
  );
  assert.deepEqual(read(json).merged!.noReport.sort(), [...a.map((s) => `site=${s}`), 'shard 1/2'].sort());

  // Shard 2's file missing: each of its sites may have run in it (the canary did, and one of wave 2).
  const json2 = join(f.dir, 'without-2.json');
  const without2 = await runCli(['report', '--merge', files[0]!, '--expect-shards', '2', '--report-json', json2]);
  assert.equal(without2.code, 1, without2.stdout + without2.stderr);
  assert.match(
    without2.stdout,
    /^✖ the rollout halted at wave 2: .*; nothing is undone; in no report \(not started, or the missing shard's\): site-0001, site-0005, site-0006$/m,
  );
  assert.deepEqual(
    read(json2).merged!.noReport.sort(),
    ['site=site-0001', 'site=site-0005', 'site=site-0006', 'shard 2/2'].sort(),
  );
});
