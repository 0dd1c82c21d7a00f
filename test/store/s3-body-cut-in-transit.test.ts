// A record read from S3 answered 200 with a body cut short whose Content-Length says the short
// length (a proxy between that rewrites bodies, not the connection cut mid-body the SDK would see):
// it is read once more before it is called damaged. Cut in transit once, the second read is whole
// and used; read the same twice, it is STORE_DAMAGED, its hint saying so and to check with another
// client before putting anything back or removing it. Before, the first cut read was STORE_DAMAGED
// with the hint to remove the lease. Ceph's RADOS Gateway behind the proxy; lease status through
// the CLI.
import assert from 'node:assert/strict';
import { after, test, type TestContext } from 'node:test';
import { acquireLease } from '../../src/store/lease.ts';
import { S3Store } from '../../src/store/s3.ts';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, rewritten } from '../helpers/s3-proxy.ts';

const ceph = await startCeph();
after(() => ceph.stop());

/** A lease L held in a store of its own, and a proxy cutting the first `cuts` reads of its record in half. */
async function cutLease(t: TestContext, cuts: number) {
  const prefix = `cut-in-transit-${Date.now()}-${cuts}`;
  const store = new S3Store(ceph.storeUrl(prefix), ceph.env);
  t.after(() => store.close());
  const held = await acquireLease(store, 'L', {
    holder: { runId: 'holding', actor: 'tester', host: 'test-host' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  t.after(() => held.release());
  let cut = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (method !== 'GET' || !path.endsWith('/leases/L/00000001') || cut >= cuts) return;
      cut += 1;
      return rewritten((body) => body.slice(0, Math.floor(body.length / 2)));
    },
  );
  const r = await runCli(['lease', 'status', 'L', '--store', ceph.storeUrl(prefix, proxy)], { env: ceph.env });
  return { ...r, said: r.stdout + r.stderr, cut: () => cut };
}

test("a lease record cut in transit once (200, its Content-Length the short body's) is read again: lease status reads the holder, not STORE_DAMAGED", async (t) => {
  const r = await cutLease(t, 1);
  assert.equal(r.cut(), 1, r.said);
  assert.equal(r.code, 0, r.said);
  assert.match(r.stdout, /holding/);
  assert.doesNotMatch(r.said, /STORE_DAMAGED|remove the lease/);
});

test('a lease record read cut the same twice is STORE_DAMAGED, its hint to check with another client first, before putting back or removing anything', async (t) => {
  const r = await cutLease(t, 2);
  assert.equal(r.code, 1, r.said);
  assert.match(r.stderr, /code: STORE_DAMAGED/);
  assert.match(
    r.stderr,
    /hint: it was read twice, the same both times: read it with another client .* first \(a proxy between may change what it answers\); then /,
  );
});

test('a lease record cut in transit, then not there when read again: STORE_DAMAGED, its hint saying so, never "the same both times"', async (t) => {
  const prefix = `cut-then-gone-${Date.now()}`;
  const store = new S3Store(ceph.storeUrl(prefix), ceph.env);
  t.after(() => store.close());
  const held = await acquireLease(store, 'L', {
    holder: { runId: 'holding', actor: 'tester', host: 'test-host' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  t.after(() => held.release());
  let reads = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (method !== 'GET' || !path.endsWith('/leases/L/00000001')) return;
      reads += 1;
      if (reads === 1) return rewritten((body) => body.slice(0, Math.floor(body.length / 2)));
      if (reads === 2)
        return {
          status: 404,
          body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
        };
    },
  );
  const r = await runCli(['lease', 'status', 'L', '--store', ceph.storeUrl(prefix, proxy)], { env: ceph.env });
  const said = r.stdout + r.stderr;
  assert.equal(reads, 2, said);
  assert.equal(r.code, 1, said);
  assert.match(r.stderr, /code: STORE_DAMAGED/);
  assert.doesNotMatch(r.stderr, /the same both times/);
  assert.match(
    r.stderr,
    /hint: it was read twice: damaged the first time, not there the second \(enginectl removes no key\): read it with another client .* first/,
  );
});
