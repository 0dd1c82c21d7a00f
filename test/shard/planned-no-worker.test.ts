// A sharded run planned (enginectl shard) whose workers have not started: `runs` and `report --merge`
// read it from the store. Before, both said the rollout "stopped in wave 1", and the merge asked to
// run the shards "again": an operator checking a run just planned read it as one that died.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test('a sharded run no worker started yet: runs says it is planned, report --merge says to start its shards, not that it stopped', async (t) => {
  const f = await shardFleet(t, 4, '  over: site\n  waves: [[site-0001], rest]');
  const { run } = await f.shard('--shards', '2');
  const runs = await f.cli(['runs', '--store', f.storeUrl]);
  assert.equal(runs.code, 0, runs.stdout + runs.stderr);
  assert.match(runs.stdout, /sharded over 2 shard\(s\), 4 site\(s\): planned, no worker started a site yet$/m);
  assert.doesNotMatch(runs.stdout, /stopped/);
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 1, 'no site has a report: not a success');
  assert.match(
    merged.stdout,
    /^✖ no site of the rollout started: no worker has run yet; start its shards \(the commands enginectl shard printed\)$/m,
  );
  assert.doesNotMatch(merged.stdout, /stopped|again/);
  assert.equal(merged.report?.rollout?.stopped, null, 'it did not stop: it never began');
});
