// A lease renewal whose answer was lost: RGW applied the PUT of the holder's next key, and the
// holder heard 503 (its retries too) and could not read the key back (503 again). The key is the
// holder's own renewal: found later (by its next heartbeat, or the check before a write), it is
// recognised by its bytes and the run goes on holding the lease. A record there that is not the
// holder's own (an operator's release, which copies the holder's identity) still stops the run.
// Through the CLI, on Ceph's RGW with a proxy in front (test/helpers/ceph.ts, s3-proxy.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startCeph } from '../helpers/ceph.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { proxyInFront, SLOW_DOWN, type ProxyAnswer } from '../helpers/s3-proxy.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const PIPELINE = `version: 1
name: Leased release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
lease: { name: fleet1, ttl: 3s }
steps:
  - id: alerts
    uses: monitoring/alerts
    with: { fail-on: critical }
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

/**
 * A run whose first renewal of the lease at `key` (a path's tail) is applied by RGW and answered
 * 503, its retries and read-backs 503 too, until the holder writes that key again (its next
 * heartbeat: another body), which RGW answers. The run's first step is held until then. Not
 * `applied`: RGW never sees the renewal; `meanwhile` (another writer of the lease) runs before the
 * holder's next write is let through.
 */
async function renewalInDoubt(
  t: TestContext,
  prefix: string,
  key: RegExp,
  options: { applied?: boolean; meanwhile?: (store: string) => Promise<unknown> } = {},
) {
  const { url, emulator } = await startEmulator(t);
  let first: string | undefined;
  let answering = false;
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  let meanwhile: Promise<unknown> = Promise.resolve();
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, body): ProxyAnswer | Promise<ProxyAnswer | undefined> | undefined => {
      if (answering || !key.test(path)) return;
      if (method === 'GET') return SLOW_DOWN;
      if (method !== 'PUT') return;
      if (first === undefined) {
        first = body;
        if (options.meanwhile) meanwhile = options.meanwhile(ceph.storeUrl(prefix));
        return { ...SLOW_DOWN, forwarded: options.applied ?? true };
      }
      if (body === first) return SLOW_DOWN;
      answering = true;
      answer();
      return meanwhile.then(() => undefined);
    },
  );
  const gateway = await gatewayInFront(
    t,
    url,
    () => undefined,
    async (method, path) => {
      if (method === 'GET' && path.endsWith('/alerts')) await answered;
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-renewal-in-doubt-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = {
    ...ceph.env,
    ENGINE_URL: gateway,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
  };
  const r = await runCli(['run', file, '--store', ceph.storeUrl(prefix, proxy)], { env });
  return { r, out: r.stdout + r.stderr, vfs: emulator.requests.filter((q) => q.path.endsWith('/update/vfs')).length };
}

/** The run goes on holding the lease whose renewal at `key` was in doubt; its write is sent once. */
async function holdsItsOwn(t: TestContext, prefix: string, key: RegExp) {
  const { r, out, vfs } = await renewalInDoubt(t, prefix, key);
  assert.equal(r.code, 0, out);
  assert.doesNotMatch(out, /LEASE_LOST|no longer this run's/);
  assert.equal(vfs, 1, 'the write is sent once');
}

test("a renewal of the fleet lease that RGW applied, answered 503 and could not be read back is the holder's own: the run goes on holding it, its write sent once", (t) =>
  holdsItsOwn(t, 'in-doubt-fleet', /\/leases\/fleet1\/00000002$/));

test("a renewal of the run's own lease (run.ID) that RGW applied, answered 503 and could not be read back is the holder's own: the run goes on holding it, its write sent once", (t) =>
  holdsItsOwn(t, 'in-doubt-own', /\/leases\/run\.[^/]+\/00000002$/));

test("a record after the holder's last that is not its own stops the run, its renewal in doubt: an operator's release (the holder's identity, other bytes) is a loss", async (t) => {
  let released = '';
  const { r, out, vfs } = await renewalInDoubt(t, 'in-doubt-released', /\/leases\/fleet1\/00000002$/, {
    applied: false,
    meanwhile: async (store) => {
      const release = await runCli(['lease', 'release', 'fleet1', '--store', store, '--reason', 'runner lost'], {
        env: { ...ceph.env, USER: 'ops-jane' },
      });
      released = release.stdout + release.stderr;
    },
  });
  assert.match(released, /lease fleet1: released by ops-jane/);
  assert.equal(r.code, 1, out);
  assert.match(out, /LEASE_LOST: lease fleet1 is no longer this run's: it was released by ops-jane\S* \(runner lost\)/);
  assert.equal(vfs, 0, 'nothing is sent once the lease is released');
});

test("a lease's first record that RGW applied, answered 503 and could not be read back is the run's own: it holds the lease and goes on, not STORE_FAILED with the lease left blocked", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const key = /\/leases\/fleet1\/00000001$/;
  let put = false;
  let listed = false;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path): ProxyAnswer | undefined => {
      // A listing after the PUT (the lease read again): the store answers from then on.
      if (put && method === 'GET' && path.split('/').filter(Boolean).length === 1) listed = true;
      if (listed || !key.test(path)) return undefined;
      if (method === 'GET' && put) return SLOW_DOWN;
      if (method !== 'PUT') return undefined;
      if (!put) {
        put = true;
        return { ...SLOW_DOWN, forwarded: true };
      }
      return SLOW_DOWN;
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-acquire-in-doubt-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = {
    ...ceph.env,
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
  };
  const r = await runCli(['run', file, '--store', ceph.storeUrl('in-doubt-acquire', proxy)], { env });
  assert.ok(put, 'the first record was put');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(emulator.requests.filter((q) => q.path.endsWith('/update/vfs')).length, 1, 'the write is sent once');
});
