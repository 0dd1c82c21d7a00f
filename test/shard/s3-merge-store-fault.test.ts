// report --merge --store reads each site's journal from the store. A store that fails that read
// (Ceph's RADOS Gateway behind a proxy answering it 503 SlowDown past the SDK's retries:
// test/helpers/s3-proxy.ts) fails the merge with STORE_FAILED naming the store: the site did run,
// and "no report: its job died or never ran" would be false. Only a journal not there is no report.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, SLOW_DOWN } from '../helpers/s3-proxy.ts';
import { startCeph } from '../helpers/ceph.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test('report --merge --store: a store that fails as a site\'s journal is read fails the merge with STORE_FAILED naming the store, not "no report"', async (t) => {
  let failing = false;
  const faulted: string[] = [];
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (!failing || method !== 'GET' || !/\/runs\/[^/]+\/journal\/[0-9]{8}$/.test(path)) return;
      faulted.push(path);
      return SLOW_DOWN;
    },
  );
  const storeUrl = ceph.storeUrl(`merge-fault-${Date.now()}`, proxy);
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, {
    store: { url: storeUrl, env: ceph.env },
  });
  const { run } = await f.shard('--shards', '1');
  const worker = await f.worker(run, '1/1');
  assert.equal(worker.code, 0, worker.stdout + worker.stderr);
  const healthy = await runCli(['report', '--merge', '--store', storeUrl, '--run', run], { env: f.env });
  assert.equal(healthy.code, 0, healthy.stdout + healthy.stderr);

  failing = true;
  const r = await runCli(['report', '--merge', '--store', storeUrl, '--run', run], { env: f.env });
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.ok(faulted.length > 0, `the fault met the read of a site's journal: ${said}`);
  assert.equal(r.code, 1, said);
  assert.match(r.stderr, /code: STORE_FAILED/, said);
  assert.match(r.stderr, /s3:\/\/enginectl-tests\/merge-fault-/, said);
  assert.doesNotMatch(r.stdout + r.stderr, /no report|died or never ran/, said);
});
