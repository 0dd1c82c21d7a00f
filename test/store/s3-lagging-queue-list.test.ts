// A waiter for a held lease takes the queue's next ticket: its number is the last listed one's
// next, after the tickets past the listing read by name (a listing may lag the keys just created:
// an NFS client's cached directory, an eventually consistent S3; here Ceph's RADOS Gateway behind a
// proxy that leaves the newest ticket out of each listing of the queue). Before, a listing that
// lagged made the waiter try the taken number again at once, listing and writing in a tight loop
// for as long as the listing lagged.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { acquireLease } from '../../src/store/lease.ts';
import { S3Store } from '../../src/store/s3.ts';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { proxyInFront, rewritten, withoutNewest } from '../helpers/s3-proxy.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test('a waiter whose listing of the queue lags takes the ticket after the ones it did not list, once: no loop of refused tickets', async (t) => {
  const prefix = `lagging-queue-${Date.now()}`;
  let tickets = 0;
  let lagging = true;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, _body, query) => {
      if (method === 'PUT' && /\/leases\/L3\/queue\/[0-9]{8}$/.test(path)) {
        // Bounded, so that a loop that never ends on its own still lets the test end (and fail).
        if (++tickets >= 50) lagging = false;
        return undefined;
      }
      if (lagging && method === 'GET' && query.get('prefix')?.endsWith('/leases/L3/queue/'))
        return rewritten(withoutNewest);
      return undefined;
    },
  );
  const store = new S3Store(ceph.storeUrl(prefix), ceph.env);
  t.after(() => store.close());
  const clock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
  const held = await acquireLease(store, 'L3', {
    holder: { runId: 'holding', actor: 'tester', host: 'test-host' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  t.after(() => held.release());
  // Another waiter's ticket, the newest: the one each listing leaves out.
  await store.create(
    'leases/L3/queue/00000001',
    Buffer.from(JSON.stringify({ runId: 'earlier', at: Date.now(), until: Date.now() + 3_600_000 })),
  );
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lagging-queue-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    'version: 1\nname: Queued\nlease: { name: L3, ttl: 3s, wait: 1s }\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: none }\n',
  );
  const r = await runCli(['run', file, '--store', ceph.storeUrl(prefix, proxy)], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...ceph.env },
  });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /LEASE_HELD/);
  assert.equal(tickets, 1, 'one ticket taken: the one after the ticket the listing left out');
  assert.ok(await store.get('leases/L3/queue/00000002'), 'its ticket is the second');
});
