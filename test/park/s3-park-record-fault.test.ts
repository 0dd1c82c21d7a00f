// A run that parks writes its park record to its journal in the store; a store that fails that
// record (Ceph's RADOS Gateway behind a proxy answering its segment's PUT 503 SlowDown on every
// attempt, test/helpers/s3-proxy.ts) leaves a store that does not hold the park. The run then says
// the store's fault and exits 1, its reports a failure: never "the run is saved: enginectl decide
// ..." and exit 75, which decide then answers with "its last run did not park".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, SLOW_DOWN } from '../helpers/s3-proxy.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a run whose park record the store fails does not say it is saved: the store's fault, exit 1, its report a failure", async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site
  waves: [[site-001], rest]
  max-failures: 0
  on-failure: decide`,
  );
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    reset: 'after',
    times: 1,
    site: 'site-002',
  });
  let faulted = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path, body) => {
      if (method !== 'PUT' || !path.includes('/journal/') || !body.includes('"t":"park"')) return undefined;
      faulted += 1;
      return SLOW_DOWN;
    },
  );
  const env = { ...f.env, ...ceph.env };
  const prefix = `park-record-fault-${Date.now()}`;
  const r = await runCli(['run', f.file, '--store', ceph.storeUrl(prefix, proxy), '--report-json', `${f.dir}/r.json`], {
    env,
    clock: f.clock,
  });
  const said = r.stdout + r.stderr;
  assert.ok(faulted > 0, `the park record met the fault: ${said}`);
  assert.notEqual(r.code, PARKED, said);
  assert.equal(r.code, 1, said);
  assert.doesNotMatch(r.stdout, /the run is saved/);
  assert.match(r.stderr, /JOURNAL_WRITE_FAILED/);
  assert.match(r.stderr, /HTTP 503 SlowDown/);
  assert.equal((JSON.parse(readFileSync(`${f.dir}/r.json`, 'utf8')) as { outcome: string }).outcome, 'failure');
  // What the store holds is what the run said: no park to decide on.
  const decide = await runCli(['decide', '--run', runIdOf(r.stdout)!, '--store', ceph.storeUrl(prefix)], {
    env,
    clock: f.clock,
  });
  assert.match(decide.stderr, /NOT_PARKED/);
});
