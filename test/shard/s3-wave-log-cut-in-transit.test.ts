// An entry of a wave's log read with its body cut in transit (a proxy between that rewrote it and
// its Content-Length: Ceph's RADOS Gateway behind test/helpers/s3-proxy.ts) is read once more
// before it is called damaged, as lease, shard and analyst records are: the worker that reads it
// goes on with the wave. Read cut the same twice, it is STORE_DAMAGED, its hint to read it with
// another client first. Before, the first cut read stopped the worker STORE_DAMAGED, its hint to
// put the record back or plan the rollout again. The workers one after the other (the first
// parks on the wave's bake), through the CLI in this process, on a clock the test moves; and two
// at once. Of two at once, before, the one that read the cut entry stopped STORE_DAMAGED, and the
// other waited at the barrier for that one's site, never to start, up to its --shard-wait (30m by
// default), then parked: on the real clock, a test of it waits 30 minutes (why an earlier one was
// taken for hung), not a reader looping on the damage.
import assert from 'node:assert/strict';
import { after, test, type TestContext } from 'node:test';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, rewritten } from '../helpers/s3-proxy.ts';
import { shardOf as shardOfSite } from '../../src/shard/manifest.ts';
import { realClock } from '../../src/app/clock.ts';
import { shardFleet } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

/** Two workers of one sharded run; the second reads wave 1's first log entry, the first's, cut in half `cuts` times. */
async function secondWorkerReadsCut(t: TestContext, cuts: number) {
  let cutting = false;
  let cut = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (!cutting || method !== 'GET' || !/\/waves\/1\/log\/00000001$/.test(path) || cut >= cuts) return;
      cut += 1;
      return rewritten((body) => body.slice(0, Math.floor(body.length / 2)));
    },
  );
  const f = await shardFleet(
    t,
    4,
    '  over: site\n  waves: [[site-0001], rest]\n  analysis: { gates: [alerts], bake: 1h, count: 1 }',
    undefined,
    { store: { url: ceph.storeUrl(`wave-log-cut-${Date.now()}-${cuts}`, proxy), env: ceph.env } },
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
  return { ...second, said: second.stdout + second.stderr, cut };
}

test("a worker reading an entry of the wave's log cut in transit once reads it again and goes on with the wave: not STORE_DAMAGED", async (t) => {
  const r = await secondWorkerReadsCut(t, 1);
  assert.equal(r.cut, 1, r.said);
  assert.doesNotMatch(r.said, /STORE_DAMAGED/);
  assert.match(r.said, /wave 1: passed/);
});

test("an entry of the wave's log read cut the same twice is STORE_DAMAGED, its hint to read it with another client first", async (t) => {
  const r = await secondWorkerReadsCut(t, 2);
  assert.equal(r.cut, 2, r.said);
  assert.equal(r.code, 1, r.said);
  assert.match(r.said, /code: STORE_DAMAGED/);
  assert.match(r.said, /waves\/1\/log\/00000001 is not an entry of a wave's log of enginectl/);
  assert.match(r.said, /hint: it was read twice, the same both times: read it with another client \(aws s3 cp /);
});

test("two workers at once, one reading the other's first entry of the wave's log cut in transit: it reads it again, and both end the wave", async (t) => {
  let cut = 0;
  // The first read of the entry that finds it (not S3's error for a key not there yet) is cut.
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    (method, path) => {
      if (method !== 'GET' || !/\/waves\/1\/log\/00000001$/.test(path) || cut > 0) return;
      return rewritten((body) =>
        body.startsWith('{') && cut++ === 0 ? body.slice(0, Math.floor(body.length / 2)) : body,
      );
    },
  );
  const f = await shardFleet(t, 4, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(`wave-log-cut-both-${Date.now()}`, proxy), env: ceph.env },
  });
  const run = (await f.shard('--shards', '2')).run;
  // One clock for both, whose sleeps pass at once (a worker at the barrier polls the log).
  const real = realClock();
  let skipped = 0;
  const clock = { now: () => real.now() + skipped, sleep: (ms: number) => Promise.resolve(void (skipped += ms)) };
  // The sites' Date moves with the workers' clock: the time a later job finds has passed for the servers too.
  f.server.now = clock.now;
  const worker = (spec: string) =>
    runCli(['run', f.file, '--store', f.storeUrl, '--run', run, '--shard', spec, '--shard-ttl', '1h'], {
      env: f.env,
      clock,
    });
  const [one, two] = await Promise.all([worker('1/2'), worker('2/2')]);
  const said = one.stdout + one.stderr + two.stdout + two.stderr;
  assert.equal(cut, 1, said);
  assert.doesNotMatch(said, /STORE_DAMAGED/);
  assert.deepEqual([one.code, two.code], [0, 0], said);
});
