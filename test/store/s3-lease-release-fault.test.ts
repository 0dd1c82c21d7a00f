// `lease release` of a shard worker's lease (`RUN.shard-I`, whose holder is an attempt with no
// journal) masks the operator's reason with the secrets of the pipeline the sharded run's manifest
// names. A store that fails as the manifest is read (Ceph's RADOS Gateway behind a proxy that
// answers it 503 SlowDown: test/helpers/s3-proxy.ts) releases nothing and says the store's fault
// (STORE_FAILED, exit 1): a manifest it cannot read is not one that is not there, and the reason
// is never recorded unmasked on a store's hiccup.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { acquireLease, leaseState } from '../../src/store/lease.ts';
import { S3Store } from '../../src/store/s3.ts';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, SLOW_DOWN } from '../helpers/s3-proxy.ts';
import { assertClean } from '../helpers/secrets.ts';
import { shardFleet } from '../shard/helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("lease release of a shard worker's lease whose store fails as the run's manifest is read releases nothing: STORE_FAILED, exit 1, never the reason recorded unmasked", async (t) => {
  let failing = false;
  const faulted: string[] = [];
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (!failing || method !== 'GET' || !/\/shards\/[^/]+\/manifest$/.test(path)) return;
      faulted.push(path);
      return SLOW_DOWN;
    },
  );
  const f = await shardFleet(t, 1, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(`release-fault-${Date.now()}`, proxy), env: ceph.env },
  });
  const { run } = await f.shard('--shards', '1');
  // A worker lost before its first site: its lease held in the store, no journal of its own.
  const store = new S3Store(f.storeUrl, ceph.env);
  t.after(() => store.close());
  const name = `${run}.shard-0`;
  await acquireLease(store, name, {
    holder: { runId: '20261126T000000Z-abcdef123456', actor: 'night-job', host: 'runner-7' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: { now: () => Date.now(), sleep: async () => undefined },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const token = f.env.PROD_TOKEN!;
  const release = () =>
    runCli(['lease', 'release', name, '--store', f.storeUrl, '--reason', `rotated ${token}`], {
      env: { ...f.env, USER: 'ops-jane' },
    });

  failing = true;
  const refused = await release();
  const said = refused.stdout + refused.stderr;
  assert.ok(faulted.length > 0, `the fault met the manifest's read: ${said}`);
  assert.equal(refused.code, 1, said);
  assert.match(
    refused.stderr,
    /could not be read to mask its secrets in the reason: .*HTTP 503 SlowDown.*; nothing was released/,
  );
  assert.match(refused.stderr, /give --pipeline FILE/);
  assert.match(refused.stderr, /code: STORE_FAILED/);
  assert.doesNotMatch(said, /released by|recorded as given/);
  assertClean('lease release, its store failing', said, [token]);
  assert.equal((await leaseState(store, name))?.record.kind, 'acquire', 'nothing was released');

  // The store answers again: the reason is masked with the secrets of the pipeline the manifest names.
  failing = false;
  const released = await release();
  assert.equal(released.code, 0, released.stdout + released.stderr);
  assert.match(released.stdout, /released by ops-jane\S*: rotated \*\*\*$/m);
  assert.equal(released.stderr, '');
  const record = (await leaseState(store, name))!.record;
  assert.equal(record.kind, 'release');
  assert.equal(record.reason, 'rotated ***');
});
