// A site whose worker is gone before the site's end reached the wave's log (the store failed there,
// or the worker was killed) is read from its journal. Its run ended every step, one write left in
// doubt that continue-on-error let pass and no one decided. The merged report tells it in doubt,
// never "success" and not yet failed: the attempt that takes it over settles the doubt first (its
// verify may read the write applied), then ends the site; here it cannot tell, and fails it.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet, waveLog } from './helpers.ts';

test("a site whose run ended with a write in doubt no one decided, its worker gone before its end reached the wave's log: the merged report tells it in doubt, and its taker's end fails it", async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 1', undefined, {
    faults: ['POST /api/devops/v1/update/system site=site-0001 status=503 times=1'],
  });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      '    with: { target: prod }\n',
      '    with: { target: prod }\n    continue-on-error: true\n',
    ),
  );
  const run = (await f.shard('--shards', '1')).run;
  // The wave log's next key unwritable (a directory where the site's end goes): the end reaches the
  // site's journal, not the wave's log, and the worker stops.
  const blocker = join(f.store, 'shards', run, 'waves', '1', 'log', '00000002');
  mkdirSync(blocker, { recursive: true });
  const stopped = await f.worker(run, '1/1');
  assert.equal(stopped.code, 1, stopped.stdout + stopped.stderr);
  assert.match(stopped.stderr, /waves\/1\/log\/00000002 is not a file/);
  rmSync(blocker, { recursive: true });
  assert.deepEqual(
    waveLog(f.store, run, 1).map((e) => e.kind),
    ['start'],
    "the site's end is not in the wave's log",
  );

  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.equal(merged.report!.outcome, 'failure', 'the rollout stopped in wave 1');
  assert.match(merged.stdout, /✖ site=site-0001: in doubt \(2 step run\(s\): 1 succeeded, 1 failed, 1 in doubt\)/);
  // Its write is still in doubt, and the report says so.
  const update = merged.report!.steps.find((s) => s.id === 'update' && s.matrix?.['site'] === 'site-0001')!;
  assert.ok(update.inDoubt, merged.stdout);

  // Its index run again ends the site as the merged report told it: failed in its wave, nothing sent again.
  const again = await f.worker(run, '1/1');
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.deepEqual(f.applied('/api/devops/v1/update/system'), { 'site-0002': 1 });
  const ended = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(ended.report!.merged!.reports.find((r) => r.source.startsWith('site site-0001'))!.outcome, 'failure');
  assert.deepEqual(
    ended.report!.rollout!.waves.map((w) => [w.outcome, w.failed]),
    [
      ['failed-within-budget', ['site-0001']],
      ['done', []],
    ],
  );
});
