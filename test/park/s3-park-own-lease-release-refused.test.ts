// park: { keep-lease: true }: a parked run keeps its fleet lease and releases its own (run.ID).
// When the store refuses the own lease's release (here Ceph's RADOS Gateway behind a proxy
// answering 403 to it) while the fleet lease's parked record is written, the run says the own
// lease could not be released, and that the fleet lease was kept, never that it was not.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront } from '../helpers/s3-proxy.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

const ACCESS_DENIED = {
  status: 403,
  body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>tx-proxy</RequestId></Error>',
};

test("park: { keep-lease: true } whose own lease's release the store refuses: the fleet lease kept is said kept", async (t) => {
  let refused = 0;
  let parkedRecords = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, body) => {
      if (method !== 'PUT') return;
      if (/\/leases\/fleet\/[0-9]{8}$/.test(path) && body.includes('"parked":true')) parkedRecords += 1;
      if (!/\/leases\/run\.[^/]+\/[0-9]{8}$/.test(path) || !body.includes('"kind":"release"')) return;
      refused += 1;
      return ACCESS_DENIED;
    },
  );
  const f = await parkFleet(
    t,
    2,
    `  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }`,
    'lease: { name: fleet, ttl: 1h }\npark: { keep-lease: true }',
  );
  const r = await runCli(['run', f.file, '--store', ceph.storeUrl(`park-own-refused-${Date.now()}`, proxy)], {
    env: { ...f.env, ...ceph.env },
    clock: f.clock,
  });
  const said = r.stdout + r.stderr;
  assert.equal(r.code, PARKED, said);
  assert.ok(runIdOf(r.stdout), said);
  assert.equal(refused, 1, said);
  assert.equal(parkedRecords, 1, said);
  assert.match(said, /lease run\.\S+ could not be released/);
  assert.match(said, /^the run is saved, the lease kept for this run's continue/m);
});
