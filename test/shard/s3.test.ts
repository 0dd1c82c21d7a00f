// A sharded run whose store is S3 (Ceph's RADOS Gateway, one cluster for this file:
// test/helpers/ceph.ts), end to end through the CLI: the plan, two queue workers over two waves
// with one budget, and the merged result, all kept in the bucket. The directory store's runs are
// test/shard/shard.test.ts; here the same protocol runs on conditional PUTs and paged lists.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { S3Store } from '../../src/store/s3.ts';
import { startCeph } from '../helpers/ceph.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test('a sharded run in an S3 bucket: two queue workers, two waves, every site written once, the merged report from the bucket names all; one probe a process, the wave logs a sequence', async (t) => {
  const prefix = 'fleet-runs';
  const f = await shardFleet(t, 8, '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 0', undefined, {
    store: { url: ceph.storeUrl(prefix), env: ceph.env },
  });
  const planned = await f.shard('--shards', '2', '--assign', 'queue');
  const run = planned.run;
  assert.match(planned.stderr, new RegExp(`^run ${run} in s3://`, 'm'));
  const [a, b] = await Promise.all([f.worker(run, '1/2'), f.worker(run, '2/2')]);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  assert.equal(b.code, 0, b.stdout + b.stderr);
  const counts = f.applied('/update/system');
  assert.deepEqual(Object.keys(counts).sort(), f.names);
  assert.ok(
    Object.values(counts).every((c) => c === 1),
    JSON.stringify(counts),
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.deepEqual(
    [...new Set(merged.report!.steps.map((s) => s.matrix?.site))].sort(),
    f.names,
    'every site has its rows',
  );
  assert.ok(
    merged.report!.steps.every((s) => s.outcome === 'success'),
    'every row a success',
  );
  // What the bucket holds: a probe for each process that opened the store to write (the plan, two
  // workers), not one per site; each wave's log numbered without a gap, a start for each of its sites.
  const store = new S3Store(ceph.storeUrl(prefix), ceph.env);
  t.after(() => store.close());
  assert.equal((await store.list('probes/')).length, 3, 'probe keys');
  for (const [wave, sites] of [
    [1, 1],
    [2, 7],
  ] as const) {
    const keys = await store.list(`shards/${run}/waves/${wave}/log/`);
    assert.deepEqual(
      keys.map((k) => Number(k.slice(k.lastIndexOf('/') + 1))),
      keys.map((_, i) => i + 1),
      `wave ${wave}'s log is a sequence`,
    );
    const starts = [];
    for (const key of keys) {
      const entry = JSON.parse((await store.get(key))!.toString('utf8')) as { kind: string; site: string };
      if (entry.kind === 'start') starts.push(entry.site);
    }
    assert.equal(new Set(starts).size, sites, `wave ${wave}: ${starts.join(', ')}`);
    assert.equal(starts.length, sites, `wave ${wave}: each site started once`);
  }
});
