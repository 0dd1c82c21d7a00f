// A worker whose store fails after it has sent something (a site's record cannot be written: a full
// or read-only share) stops before its next call, and every report it was asked for is still
// written: the sites it ran, and that it stopped (STORE_FAILED, exit 1).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

test('a worker whose store fails after a site started writes its reports all the same, and exits 1 saying what the store refused', async (t) => {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]');
  const { run } = await f.shard('--shards', '1');
  // A file where the sites' records go: the site's steps run, then its record cannot be written.
  writeFileSync(join(f.store, 'shards', run, 'sites'), '');
  const r = await f.worker(run, '1/1');
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /cannot write shards\/\S+\/sites\/s-site-0001 \(ENOTDIR\)/);
  const applied = Object.keys(f.applied('/update/system'));
  assert.ok(applied.includes('site-0001'), 'a site ran before the fault');
  assert.ok(r.report, `the report was written: ${r.stdout}${r.stderr}`);
  assert.equal(r.report.outcome, 'cancelled');
  // Every site whose update the server applied is in the worker's report.
  const reported = r.report.steps
    .filter((s) => s.id === 'update' && s.outcome === 'success')
    .map((s) => s.matrix?.site);
  for (const site of applied) assert.ok(reported.includes(site), `${site} in the report: ${JSON.stringify(reported)}`);
});
