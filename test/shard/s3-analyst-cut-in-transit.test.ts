// A wave's analyst record read with its body cut in transit (a proxy between that rewrote it and
// its Content-Length: Ceph's RADOS Gateway behind test/helpers/s3-proxy.ts) is read once more
// before it is called damaged, as lease and shard records are (test/store/s3-body-cut-in-transit.test.ts):
// the worker that reads it decides the wave. Before, it stopped STORE_DAMAGED, its hint to put the
// record back or plan the rollout again.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, rewritten } from '../helpers/s3-proxy.ts';
import { shardOf as shardOfSite } from '../../src/shard/manifest.ts';
import { realClock } from '../../src/app/clock.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

test("a worker reading the parked analyst's record cut in transit once reads it again and decides the wave: not STORE_DAMAGED", async (t) => {
  let cutting = false;
  let cut = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (!cutting || method !== 'GET' || !/\/waves\/1\/analyst\/00000001$/.test(path) || cut > 0) return;
      cut += 1;
      return rewritten((body) => body.slice(0, Math.floor(body.length / 2)));
    },
  );
  const f = await shardFleet(
    t,
    4,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], bake: 1h, count: 1 }',
    undefined,
    { store: { url: ceph.storeUrl(`analyst-cut-${Date.now()}`, proxy), env: ceph.env } },
  );
  const run = (await f.shard('--shards', '2')).run;
  const owner = shardOfSite('site-0001', 2) === 0 ? '1/2' : '2/2';
  const other = owner === '1/2' ? '2/2' : '1/2';
  const real = realClock();
  let skipped = 0;
  const clock = { now: () => real.now() + skipped, sleep: (ms: number) => Promise.resolve(void (skipped += ms)) };
  // The sites' Date moves with the workers' clock: the time a later job finds has passed for the servers too.
  f.server.now = clock.now;
  const worker = (spec: string) =>
    runCli(
      ['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--shard-wait', '1m', '--shard-ttl', '1h'],
      { env: f.env, clock },
    );
  const first = await worker(owner);
  assert.equal(first.code, 75, first.stdout + first.stderr);
  skipped += 3_600_000;
  cutting = true;
  const second = await worker(other);
  const said = second.stdout + second.stderr;
  assert.equal(cut, 1, said);
  assert.doesNotMatch(said, /STORE_DAMAGED/);
  assert.match(said, /wave 1: passed/);
});
