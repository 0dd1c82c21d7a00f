// park: { keep-lease: true }: a parked run keeps its fleet lease, renewed once more and marked
// parked. When the store refuses that record (here Ceph's RADOS Gateway behind a proxy answering
// 412 to it, as S3 answers a create-only write of a key another holder took), the lease is not
// kept: the run says so, and never "the lease kept for this run's continue". Before, the refused
// write was ignored (HeldLease.park() dropped its outcome) and the run said the lease was kept.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront } from '../helpers/s3-proxy.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const PRECONDITION_FAILED = {
  status: 412,
  body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><RequestId>tx-proxy</RequestId></Error>',
};

test('park: { keep-lease: true } whose parked lease record the store refuses: the run says the lease was not kept, never that it was', async (t) => {
  let refused = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, body) => {
      if (method !== 'PUT' || !/\/leases\/fleet\/[0-9]{8}$/.test(path) || !body.includes('"parked":true')) return;
      refused += 1;
      return PRECONDITION_FAILED;
    },
  );
  const f = await parkFleet(
    t,
    2,
    `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`,
    'lease: { name: fleet, ttl: 1h }\npark: { keep-lease: true }',
  );
  const r = await runCli(['run', f.file, '--store', ceph.storeUrl(`park-refused-${Date.now()}`, proxy)], {
    env: { ...f.env, ...ceph.env },
    clock: f.clock,
  });
  const said = r.stdout + r.stderr;
  assert.equal(r.code, PARKED, said);
  assert.ok(runIdOf(r.stdout), said);
  assert.equal(refused, 1, said);
  assert.doesNotMatch(said, /the lease kept for this run's continue/);
  assert.match(said, /lease fleet was not kept for this run's continue/);
});
