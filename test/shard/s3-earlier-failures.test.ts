// A worker of a retried index (its second attempt) reads, at its end, the sites an earlier
// attempt of its index ended (its exit and its reports must say those that failed). A store that fails
// at that read (Ceph's RADOS Gateway behind a proxy that answers every read of the wave's log
// 503 SlowDown from then on: test/helpers/s3-proxy.ts) loses nothing: every report the worker was
// asked for is still written, cut short (not a success it cannot know), then the fault is said.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { proxyInFront, SLOW_DOWN } from '../helpers/s3-proxy.ts';
import { startCeph } from '../helpers/ceph.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a retried worker whose store fails as it reads its index's earlier failures writes every report all the same (JSON, JUnit, HTML, summary), then says the fault", async (t) => {
  let failing = false;
  const faulted: string[] = [];
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (!failing || method !== 'GET' || !/\/waves\/[0-9]+\/log\/[0-9]{8}$/.test(path)) return;
      faulted.push(path);
      return SLOW_DOWN;
    },
  );
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 1', undefined, {
    store: { url: ceph.storeUrl(`earlier-failures-${Date.now()}`, proxy), env: ceph.env },
  });
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', status: 500, site: 'site-0001' });
  const { run } = await f.shard('--shards', '1');
  // The first attempt: site-0001 fails (within the wave's budget), site-0002 succeeds.
  const first = await f.worker(run, '1/1');
  assert.equal(first.code, 1, first.stdout + first.stderr);

  // The index run again: nothing is left to run; at its end it reads the earlier failures, and the store fails.
  failing = true;
  const files = { '--junit': join(f.dir, 'w.xml'), '--html': join(f.dir, 'w.html'), '--summary': join(f.dir, 'w.md') };
  const second = await f.worker(run, '1/1', ...Object.entries(files).flat());
  assert.ok(faulted.length > 0, `the fault met the read of the wave's log: ${second.stdout}${second.stderr}`);
  assert.ok(second.report, `the JSON report was written: ${second.stdout}${second.stderr}`);
  for (const [flag, path] of Object.entries(files)) assert.ok(existsSync(path), `${flag} ${path} was written`);
  assert.notEqual(second.report.outcome, 'success', 'not a success it could not know');
  assert.equal(second.report.shard?.attempt, 2);
  assert.match(readFileSync(files['--summary'], 'utf8'), /cancelled/i);
  // Then the fault is said: the store's failure, and that this attempt sent nothing (the index may run again).
  assert.match(
    second.stdout,
    /shard 1\/1: its earlier attempts' ended sites could not be read from the store: .*HTTP 503/,
  );
  assert.match(second.stderr, /HTTP 503 SlowDown/);
  assert.match(second.stderr, /code: SHARD_UNAVAILABLE/);
  assert.equal(second.code, 69, second.stdout + second.stderr);
});
