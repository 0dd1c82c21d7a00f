// The election of a wave's analyst reads who stood so far from the store's `waves/K/analyst/` keys;
// a listing that lags the keys just created (an NFS client's cached directory, an eventually
// consistent S3: here Ceph's RADOS Gateway behind a proxy that leaves the newest key out of each
// listing of the analysts) must not hide the newest record: the analysts after the listed ones are
// read by name. Before, an analyst that parked on its bake and gave its place up (its record the
// newest) was read as still standing: once its lease was gone, the next worker stood at the key the
// give-up holds, lost that race at every read, and parked at the barrier, the wave never decided.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, rewritten, withoutNewest } from '../helpers/s3-proxy.ts';
import { shardOf as shardOfSite } from '../../src/shard/manifest.ts';
import { realClock } from '../../src/app/clock.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a worker whose listing of a wave's analysts lags (the parked analyst's give-up left out) stands after it and decides the wave: not a barrier that parks with no verdict", async (t) => {
  let lagged = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, _path, _body, query) => {
      if (method !== 'GET' || !/\/waves\/[0-9]+\/analyst\/$/.test(query.get('prefix') ?? '')) return;
      lagged += 1;
      return rewritten(withoutNewest);
    },
  );
  const f = await shardFleet(
    t,
    4,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], bake: 1h, count: 1 }',
    undefined,
    { store: { url: ceph.storeUrl(`lagging-analysts-${Date.now()}`, proxy), env: ceph.env } },
  );
  const run = (await f.shard('--shards', '2')).run;
  const owner = shardOfSite('site-0001', 2) === 0 ? '1/2' : '2/2';
  const other = owner === '1/2' ? '2/2' : '1/2';
  // The workers' clock: every wait passes at once (a bake of an hour, a barrier's polls), as a later job would find it.
  const real = realClock();
  let skipped = 0;
  const clock = { now: () => real.now() + skipped, sleep: (ms: number) => Promise.resolve(void (skipped += ms)) };
  // The sites' Date moves with the workers' clock: the time a later job finds has passed for the servers too.
  f.server.now = clock.now;
  const worker = (spec: string) =>
    runCli(
      ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--shard-wait', '1m', '--shard-ttl', '1h'],
      { env: f.env, clock },
    );
  // The owner of wave 1 runs its site, stands as analyst, parks on the bake and gives its place up.
  const first = await worker(owner);
  assert.equal(first.code, 75, first.stdout + first.stderr);
  assert.match(first.stdout, /parked: waiting for the 1h bake after wave 1/);
  skipped += 3_600_000;
  // The other worker: its listing shows the owner standing, not its give-up after it.
  const second = await worker(other);
  const said = second.stdout + second.stderr;
  assert.ok(lagged > 0, said);
  assert.match(said, /wave 1: passed/);
  assert.doesNotMatch(said, /parked/);
});
