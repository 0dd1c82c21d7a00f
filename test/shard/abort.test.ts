// The operator's abort of a sharded run (decide --store URL --run ID --abort --reason T): the
// rollout halts where it stands on every worker, as one process's aborted run sends nothing more:
// no site starts after it (its entry in the wave's log refuses every claim after it), the workers
// end (exit 1), and the merged report, `runs` and each worker say who aborted it and why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

const UPDATE = '/api/devops/v1/update/system';

test('a sharded run aborted before its workers ran: no site starts, each worker exits 1 saying who aborted it and why, and the merged report and runs say it halted', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [[site-0001], rest]');
  const run = (await f.shard('--shards', '2')).run!;
  const decided = await f.cli(['decide', '--store', f.storeUrl, '--run', run, '--abort', '--reason', 'bad build']);
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  assert.match(
    decided.stdout,
    /^sharded run \S+: the rollout halts at wave 1: aborted by the operator \(.+\): bad build$/m,
  );

  const workers = await Promise.all(['1/2', '2/2'].map((s) => f.worker(run, s)));
  for (const w of workers) {
    assert.equal(w.code, 1, w.stdout + w.stderr);
    assert.match(w.stdout + w.stderr, /aborted by the operator \(.+\): bad build/);
  }
  assert.deepEqual(f.applied(UPDATE), {}, 'no site was sent anything');

  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.equal(merged.report?.rollout?.halted?.wave, 1);
  assert.match(merged.report?.rollout?.halted?.reason ?? '', /^aborted by the operator \(.+\): bad build$/);
  assert.doesNotMatch(merged.stdout, /no report/);
  const listed = await f.cli(['runs', '--store', f.storeUrl]);
  assert.match(listed.stdout, new RegExp(`^${run}  .*: halted at wave 1$`, 'm'));

  // Decided again: the rollout has halted already; nothing is recorded.
  const again = await f.cli(['decide', '--store', f.storeUrl, '--run', run, '--abort']);
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, /halted at wave 1 \(aborted by the operator .*\); there is nothing to abort/);
});

test('a sharded run aborted while a worker runs a site: that site ends as it stands, no other site starts, the worker exits 1', async (t) => {
  const operator: { abort?: () => Promise<void> } = {};
  let aborted = false;
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]\n  max-parallel: 1', {
    // The first update to reach the server waits until the operator's abort is recorded.
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
  };
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.match(worker.stdout + worker.stderr, /aborted by the operator \(.+\): stop/);
  // The site in flight when the abort was recorded ended (its update applied); no other started.
  assert.equal(
    Object.values(f.applied(UPDATE)).reduce((a, b) => a + b, 0),
    1,
    JSON.stringify(f.applied(UPDATE)),
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.report?.rollout?.halted?.wave, 1, merged.stdout);
  const notStarted = merged.report?.steps.filter((s) => s.id === 'update' && s.outcome === 'cancelled') ?? [];
  assert.equal(notStarted.length, 3, merged.stdout);
});

test('decide --abort of a run id that is not one: a usage error (exit 2) naming the id, as every other decision says it', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const decided = await f.cli(['decide', '--store', f.storeUrl, '--run', 'bad id', '--abort', '--reason', 'x']);
  assert.equal(decided.code, 2, decided.stdout + decided.stderr);
  assert.match(decided.stderr, /--run bad id: not a run id/);
  assert.doesNotMatch(decided.stderr, /shards\/bad id/);
});
