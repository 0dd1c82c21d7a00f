// A pipeline that holds a lease (lease: one run at a time on the fleet, or on each site with over:)
// cannot be sharded: a sharded run's workers hold a lease of their own index, never the pipeline's,
// so they would write while another run holds the fleet. Before, enginectl shard accepted it without
// a word and its workers wrote every site while another run held the fleet's lease.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shardFleet } from './helpers.ts';

for (const lease of ['{ name: prod-fleet, ttl: 10m }', '{ name: prod, ttl: 10m, over: site }'])
  test(`enginectl shard of a pipeline with lease: ${lease}: refused (SHARD_REFUSED, exit 2), no run planned, nothing sent`, async (t) => {
    const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 0');
    writeFileSync(f.file, readFileSync(f.file, 'utf8').replace('\nrollout:\n', `\nlease: ${lease}\nrollout:\n`));
    const r = await f.cli(['shard', f.file, '--store', f.storeUrl, '--shards', '2']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /SHARD_REFUSED|a sharded run holds no lease of the pipeline's/);
    assert.match(r.stderr, /fleet\.yml:\d+:\d+: .*lease:/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(
      readdirSync(join(f.store)).filter((e) => e !== 'leases'),
      [],
      'no run planned in the store',
    );
    assert.deepEqual(f.applied('/update/system'), {});
  });
