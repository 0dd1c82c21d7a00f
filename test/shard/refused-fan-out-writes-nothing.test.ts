// A fan-out its engine cannot run (GitLab's parallel: takes at most 200 jobs) is refused before
// the run is planned. Before, enginectl shard --format gitlab --shards 201 wrote the run's
// instances and manifest to the store, then refused (exit 2): runs --store listed a planned run no
// worker would ever run.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test('shard --format gitlab --shards 201: refused (exit 2) with nothing written to the store, runs --store lists no run', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const r = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '201', '--format', 'gitlab']);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /GitLab's parallel: runs at most 200 jobs, not 201/);
  assert.equal(r.stdout, '');
  assert.deepEqual(
    readdirSync(f.store).filter((e) => e !== 'leases'),
    [],
    'no run planned in the store',
  );
  const runs = await f.cli(['runs', '--store', f.storeUrl]);
  assert.equal(runs.code, 0, runs.stdout + runs.stderr);
  assert.doesNotMatch(runs.stdout, /sharded/);
});
