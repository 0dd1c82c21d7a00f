// A shard worker's lease renewal whose answer was lost: RGW applied the PUT of the worker lease's
// next key (`leases/RUN.shard-0/00000002`), and the worker heard 503 (its retries too) and could
// not read the key back (503 again). The key is the worker's own renewal: found later (by its next
// heartbeat, or the check before a site's write), it is known by its bytes and the worker goes on
// holding its lease, its site's write sent once. The run's version of this is
// test/store/lease-renewal-in-doubt.test.ts. Through the CLI, on Ceph's RGW with a proxy in front
// (test/helpers/ceph.ts, s3-proxy.ts).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { proxyInFront, SLOW_DOWN, type ProxyAnswer } from '../helpers/s3-proxy.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a renewal of a shard worker's lease that RGW applied, answered 503 and could not be read back is the worker's own: it goes on holding its lease, its site's write sent once", async (t) => {
  // The worker lease's second key, once the run's id is known.
  const lease: { key?: RegExp } = {};
  let first: string | undefined;
  let answering = false;
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, body): ProxyAnswer | undefined => {
      if (answering || !lease.key?.test(path)) return undefined;
      if (method === 'GET') return SLOW_DOWN;
      if (method !== 'PUT') return undefined;
      if (first === undefined) {
        // The first renewal: RGW applies it, its answer is lost (and the SDK's retries are answered 503).
        first = body;
        return { ...SLOW_DOWN, forwarded: true };
      }
      if (body === first) return SLOW_DOWN;
      // The next heartbeat (another body): the store answers from now on.
      answering = true;
      answer();
      return undefined;
    },
  );
  const f = await shardFleet(
    t,
    1,
    '  over: site\n  waves: [rest]',
    {
      // The site's first request (before its write's check of the lease) is held until the renewal
      // in doubt was followed by the next heartbeat: the store is failing until then.
      before: async () => {
        await answered;
      },
    },
    { store: { url: ceph.storeUrl('worker-renewal-in-doubt', proxy), env: ceph.env } },
  );
  const run = (await f.shard('--shards', '1')).run;
  lease.key = new RegExp(`/leases/${run.replace(/[.]/g, '\\.')}\\.shard-0/00000002$`);
  // A ttl of 15s: heartbeats 5s apart, long enough that RGW's slow answers on a loaded machine never lapse the lease between them.
  const r = await f.worker(run, '1/1', '--shard-ttl', '15s');
  const out = r.stdout + r.stderr;
  assert.ok(first !== undefined, `the renewal was put: ${out}`);
  assert.equal(r.code, 0, out);
  assert.doesNotMatch(out, /LEASE_LOST|no longer this run's/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1 }, 'the write is sent once');
});
