// A read of the run store cut mid-body (the connection reset after RGW's headers and half its
// body: Ceph's RADOS Gateway behind a proxy, test/helpers/s3-proxy.ts) is read again, as the SDK
// retries a read cut before its headers: one cut in a worker's reads of the store does not
// stop the worker; reads cut every time still fail STORE_FAILED, naming the key.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { S3Store } from '../../src/store/s3.ts';
import { StoreError } from '../../src/store/store.ts';
import { startCeph } from '../helpers/ceph.ts';
import { rejection } from '../helpers/emulator.ts';
import { CUT_MID_BODY, proxyInFront } from '../helpers/s3-proxy.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a worker whose read of a wave's verdict is cut mid-body once reads it again and goes on to its end, exit 0", async (t) => {
  const cut: string[] = [];
  let cutting = false;
  const written = new Set<string>();
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    (method, path) => void (method === 'PUT' && written.add(path)),
    (method, path) => {
      // A key that is there (a read of one that is not is RGW's 404, whose body the SDK reads in its retries).
      if (!cutting || cut.length > 0 || method !== 'GET' || !path.endsWith('/waves/1/verdict') || !written.has(path))
        return;
      cut.push(path);
      return CUT_MID_BODY;
    },
  );
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(`cut-read-${Date.now()}`, proxy), env: ceph.env },
  });
  const { run } = await f.shard('--shards', '2', '--assign', 'queue');
  // The first worker claims and runs both sites; the second reads the wave's verdict it left.
  const first = await f.worker(run, '1/2');
  assert.equal(first.code, 0, first.stdout + first.stderr);
  cutting = true;
  const second = await f.worker(run, '2/2');
  assert.equal(cut.length, 1, 'one read was cut');
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(second.stdout, /shard 2\/2: done, 0 site\(s\) run/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
});

test('a key whose every read is cut mid-body: STORE_FAILED naming the key, after as many reads as the store makes attempts', async (t) => {
  let reads = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method) => (method === 'GET' ? (reads++, CUT_MID_BODY) : undefined),
  );
  const store = new S3Store(ceph.storeUrl(`cut-always-${Date.now()}`, proxy), ceph.env);
  t.after(() => store.close());
  assert.equal(await store.create('shards/r/manifest', Buffer.from(JSON.stringify({ some: 'record' }))), true);
  const error = await rejection(store.get('shards/r/manifest'));
  assert.ok(error instanceof StoreError, String(error));
  assert.equal(error.code, 'STORE_FAILED');
  assert.match(error.message, /cannot read shards\/r\/manifest \(.*ECONNRESET.*\)/);
  assert.equal(reads, 3);
});
