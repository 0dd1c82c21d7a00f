// report --merge --store reads which shards a worker started from the store's `workers/I/` keys; a
// listing that lags the keys just created (an NFS client's cached directory, an eventually
// consistent S3: here Ceph's RADOS Gateway behind a proxy that leaves the newest key out of each
// listing of a shard's attempts) does not make a shard that ran "no worker started": its first
// attempt's key is read by name when the listing shows none.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { proxyInFront, rewritten, withoutNewest } from '../helpers/s3-proxy.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test('report --merge --store over a listing of the shards\' attempts that lags: every shard that ran is there, none "no worker started"', async (t) => {
  let lagging = false;
  let lagged = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, _path, _body, query) => {
      if (!lagging || method !== 'GET' || !/\/workers\/[0-9]{5}\/$/.test(query.get('prefix') ?? '')) return;
      lagged += 1;
      return rewritten(withoutNewest);
    },
  );
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(`lagging-workers-${Date.now()}`, proxy), env: ceph.env },
  });
  const { run } = await f.shard('--shards', '2');
  // Together: each waits at the barrier for the other's sites.
  for (const worker of await Promise.all(['1/2', '2/2'].map((index) => f.worker(run, index))))
    assert.equal(worker.code, 0, worker.stdout + worker.stderr);
  lagging = true;
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  const said = merged.stdout + merged.stderr;
  assert.ok(lagged > 0, said);
  assert.doesNotMatch(said, /no worker started/);
  assert.equal(merged.code, 0, said);
  assert.equal(merged.report?.outcome, 'success', said);
});
