// A worker gives up its index's lease (RUN.shard-I) at its end. A store that fails that write
// (Ceph's RADOS Gateway behind a proxy that answers the release record's PUT 503 SlowDown:
// test/helpers/s3-proxy.ts) leaves the lease held until its ttl, and the next attempt of the index
// waits for it: the worker says so, as a run says of its fleet lease (app/lease-setup.ts), a
// warning naming the lease and when it expires by itself. Its sites' outcome is not changed.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { leaseState } from '../../src/store/lease.ts';
import { S3Store } from '../../src/store/s3.ts';
import { proxyInFront, SLOW_DOWN } from '../helpers/s3-proxy.ts';
import { startCeph } from '../helpers/ceph.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a worker whose store fails the release of its index's lease says so: a warning naming the lease, which expires by itself at its ttl", async (t) => {
  const faulted: string[] = [];
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, body) => {
      if (method !== 'PUT' || !/\/leases\/[^/]+\.shard-0\/[0-9]{8}$/.test(path) || !body.includes('"kind":"release"'))
        return;
      faulted.push(path);
      return SLOW_DOWN;
    },
  );
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(`worker-release-${Date.now()}`, proxy), env: ceph.env },
  });
  const { run } = await f.shard('--shards', '1');
  const r = await f.worker(run, '1/1', '--shard-ttl', '60s');
  const out = r.stdout + r.stderr;
  assert.ok(faulted.length > 0, `the fault met the release: ${out}`);
  assert.equal(r.code, 0, `its site succeeded: ${out}`);
  const name = `${run}.shard-0`;
  const state = await (async () => {
    const store = new S3Store(f.storeUrl, ceph.env);
    try {
      return await leaseState(store, name);
    } finally {
      store.close();
    }
  })();
  assert.notEqual(state?.record.kind, 'release', 'the lease is still held in the store');
  const expires = new Date(state!.record.expiresAt).toISOString();
  assert.match(
    r.stdout,
    new RegExp(
      `warning lease ${name.replace(/\./g, '\\.')} \\(shard 1/1\\) could not be released \\(.*HTTP 503 SlowDown.*\\): it expires by itself at ${expires.replace(/\./g, '\\.')}`,
    ),
    out,
  );
});
