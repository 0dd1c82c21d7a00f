// A worker's report says where the rollout stands at its end (a parked wave, its failed sites),
// read from the store: the waves' verdicts, and the log of the wave it stopped at. A store that
// fails at that read (Ceph's RADOS Gateway behind a proxy that answers it 503 SlowDown:
// test/helpers/s3-proxy.ts) is a fault, said as one (STORE_FAILED, exit 1) once every report is
// written, cut short; never a rollout that reads as if the wave had no failure, or no rollout.
import assert from 'node:assert/strict';
import { after, test, type TestContext } from 'node:test';
import { proxyInFront, SLOW_DOWN } from '../helpers/s3-proxy.ts';
import { startCeph } from '../helpers/ceph.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

/**
 * One worker of a 3-site rollout: site-0001 fails in wave 1 (within its budget of 1), site-0002
 * succeeds, and the 1h bake after the wave parks the worker (past its 30m wait). Once that failure is in the wave's log, every
 * read of the key `faulty` matches is answered 503: only the worker's read of where the rollout
 * stands at its end reads it (its own log is read on from where it was, wave 2's verdict is read
 * by nothing else).
 */
async function parkedWithFault(t: TestContext, prefix: string, faulty: RegExp) {
  let failing = false;
  const faulted: string[] = [];
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, body) => {
      if (method === 'PUT' && /\/waves\/1\/log\/[0-9]{8}$/.test(path) && body.includes('"outcome":"failure"'))
        failing = true;
      if (!failing || method !== 'GET' || !faulty.test(path)) return;
      faulted.push(path);
      return SLOW_DOWN;
    },
  );
  const f = await shardFleet(
    t,
    3,
    '  over: site\n  waves: [[site-0001, site-0002], rest]\n  max-failures: 1\n  analysis: { bake: 1h }',
    undefined,
    { store: { url: ceph.storeUrl(`${prefix}-${Date.now()}`, proxy), env: ceph.env } },
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const { run } = await f.shard('--shards', '1');
  const r = await f.worker(run, '1/1');
  const out = r.stdout + r.stderr;
  assert.ok(faulted.length > 0, `the fault met the read: ${out}`);
  assert.ok(r.report, `the JSON report was written: ${out}`);
  assert.notEqual(r.report.outcome, 'success', 'not a success it could not know');
  assert.match(
    r.stdout,
    /shard 1\/1: where the rollout stands at its end could not be read from the store: .*HTTP 503/,
  );
  assert.match(r.stderr, /HTTP 503 SlowDown/);
  assert.match(r.stderr, /code: STORE_FAILED/);
  assert.equal(r.code, 1, out);
}

test("a worker whose store fails as it reads its wave's log at its end says the fault (STORE_FAILED, exit 1), its reports written: not a parked wave with no failure", (t) =>
  parkedWithFault(t, 'log-at-end', /\/waves\/1\/log\/00000001$/));

test("a worker whose store fails as it reads the waves' verdicts at its end says the fault (STORE_FAILED, exit 1), its reports written: not a report without its rollout", (t) =>
  parkedWithFault(t, 'verdicts-at-end', /\/waves\/2\/verdict$/));
