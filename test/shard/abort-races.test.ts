// The operator's abort of a sharded run against its races: a takeover judged before the abort
// is not appended after it; abort entries with no verdict (decide killed part way, or every worker
// ended before one wrote it) are read as the halt they are; read while a site still runs, the
// merged report says the run is under way. Found by review (each failed before its fix: the
// takeover appended after the abort and the site resumed; the report said "stopped in wave 1";
// it said "failure", the running site cut short).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { writeManifest, type Manifest } from '../../src/shard/manifest.ts';
import { WaveLog } from '../../src/shard/wave-log.ts';
import { runWorker } from '../../src/shard/worker.ts';
import { WaitBudget } from '../../src/shard/wait-budget.ts';
import { abortShardedRun } from '../../src/app/shard-abort.ts';

const UPDATE = '/api/devops/v1/update/system';

test('a takeover judged before an abort is not appended after it, and the site is not resumed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-review-'));
  const store = new DirectoryStore(pathToFileURL(dir).href);
  const run = '20261205T000000Z-review';
  const manifest: Manifest = {
    v: 2,
    run,
    name: 'p',
    file: 'p.yaml',
    sha256: 'x',
    inventory: 'y',
    over: 'site',
    shards: 2,
    parallel: 1,
    assign: 'queue',
    waves: [['site-a', 'site-b']],
    budgets: [0],
    analysis: false,
    at: 0,
    by: 'me',
  };
  await writeManifest(store, manifest);
  // Worker 0 (holder A) started site-a and died; site-b no one claimed yet.
  await new WaveLog(store, run, 1).append(
    { kind: 'start', site: 'site-a', worker: 0, holder: 'A', siteRun: 'R-a', at: 1 },
    () => true,
  );
  const ran: string[] = [];
  let abortDone = false;
  const result = await runWorker({
    store,
    manifest,
    index: 1,
    holder: 'B',
    now: () => 10,
    sleep: async () => {},
    signal: new AbortController().signal,
    pollMs: 1,
    waitBudget: new WaitBudget(0, () => 10),
    runSite: async (site, _w, siteRun) => {
      ran.push(`${site}${siteRun.resume ? ' (resumed)' : ''} after abort: ${abortDone}`);
      return { outcome: 'success' };
    },
    analyse: async () => ({ cancelled: true }),
    // While this worker checks worker 0's lease, the operator aborts the run (decide --abort returns).
    isGone: async () => {
      await abortShardedRun(store, run, { by: 'op', at: 5, reason: 'stop' });
      abortDone = true;
      return true;
    },
    newRunId: () => 'R-new',
    say: () => {},
  });
  const log = await new WaveLog(store, run, 1).read();
  assert.deepEqual(
    log.entries.map((e) => e.kind),
    ['start', 'abort'],
    'no takeover after the abort entry',
  );
  assert.deepEqual(ran, [], 'no site resumed after decide --abort returned');
  assert.equal(result.end.outcome, 'halted');
});

test('abort entries with no verdict (the workers ended before any wrote it, or decide --abort killed part way): the merged report and runs say it halted', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [[site-0001], rest]');
  const run = (await f.shard('--shards', '2')).run!;
  const store = new DirectoryStore(pathToFileURL(f.store).href);
  for (const w of [1, 2])
    await new WaveLog(store, run, w).append(
      { kind: 'abort', by: 'op', reason: 'bad build', at: Date.now() },
      (s) => !s.aborted,
    );
  // No worker ran since: no verdict, the log's abort is the halt.
  const before = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(before.report?.rollout?.halted?.wave, 1, before.stdout);
  assert.match(before.report?.rollout?.halted?.reason ?? '', /^aborted by the operator \(op, .*\): bad build$/);
  assert.equal(before.code, 1);
  const workers = await Promise.all(['1/2', '2/2'].map((s) => f.worker(run, s)));
  for (const w of workers) {
    assert.equal(w.code, 1, w.stdout + w.stderr);
    assert.match(w.stdout + w.stderr, /aborted by the operator \(.+\): bad build/);
  }
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const listed = await f.cli(['runs', '--store', f.storeUrl]);
  assert.equal(merged.report?.rollout?.halted?.wave, 1, merged.stdout);
  assert.match(listed.stdout, new RegExp(`^${run}  .*: halted at wave 1$`, 'm'));
});

test('the merged report read right after an abort, a site still in flight: under way, not halted as if every worker were gone', async (t) => {
  const operator: { abort?: () => Promise<void> } = {};
  let aborted = false;
  let during: Awaited<ReturnType<typeof f.cli>> | undefined;
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]\n  max-parallel: 1', {
    before: async (method, path) => {
      if (method !== 'POST' || !path.endsWith(UPDATE) || aborted) return;
      aborted = true;
      await operator.abort!();
    },
  });
  const run = (await f.shard('--shards', '1', '--assign', 'queue')).run!;
  operator.abort = async () => {
    const d = await f.cli(['decide', '--store', f.storeUrl, '--run', run, '--abort', '--reason', 'stop']);
    assert.equal(d.code, 0, d.stdout + d.stderr);
    during = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  };
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1);
  assert.equal(during!.report?.outcome, 'under-way', 'a worker alive still sends the site in flight');
});
