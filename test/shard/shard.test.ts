// A sharded run through the CLI: enginectl shard writes the manifest and prints the fan-out; the
// workers (run --shard I/N) share the run store, keep the waves and one failure budget, and
// report --merge --store --run gives one result naming every site.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test('two static shards of a 12-site rollout in 3 waves: every site once, the merged report names all', async (t) => {
  const f = await shardFleet(t, 12, '  over: site\n  waves: [[site-0001], 3, rest]\n  max-failures: 0');
  const planned = await f.shard('--shards', '2');
  assert.equal(planned.code, 0, planned.stdout + planned.stderr);
  const run = planned.run!;
  assert.match(planned.stdout, new RegExp(`--run ${run} --shard 1/2$`, 'm'));
  const [a, b] = await Promise.all([f.worker(run, '1/2'), f.worker(run, '2/2')]);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  assert.equal(b.code, 0, b.stdout + b.stderr);
  const counts = f.applied('/update/system');
  assert.equal(Object.keys(counts).length, 12);
  assert.ok(
    Object.values(counts).every((c) => c === 1),
    JSON.stringify(counts),
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
});
