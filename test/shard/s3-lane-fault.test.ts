// A worker running two sites at once (max-parallel: 2) whose store fails in one lane (the end of
// one site cannot be appended to the wave's log: Ceph's RADOS Gateway behind a proxy that answers
// those PUTs 503 SlowDown) while the other lane's site has a write in flight (held at a gateway in
// front of the API until the test lets it go). The worker stops for the store's fault, but only once
// that write answered: its lease is never released while a call of its is in flight, so no other
// worker takes the site over, verifies the write "not applied" and sends it a second time.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { realClock } from '../../src/app/clock.ts';
import { startCeph } from '../helpers/ceph.ts';
import { runCli } from '../helpers/cli.ts';
import { proxyInFront, SLOW_DOWN } from '../helpers/s3-proxy.ts';
import { shardFleet, workerProcess } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

/** Until `ready()`; fails the test if the worker ends before that. */
async function until(ready: () => boolean, worker: { done: Promise<{ out: string }> }, what: string): Promise<void> {
  let ended: string | undefined;
  void worker.done.then((d) => (ended = d.out));
  while (!ready()) {
    if (ended !== undefined) assert.fail(`the worker ended before ${what}: ${ended}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("a worker whose store fails in one lane while its other lane's write is in flight stops only once that write answered: its lease is not released under the call, the write applied once", async (t) => {
  const held: { site?: string; release?: () => void } = {};
  let releasedUnderCall = false;
  let released = false;
  let failedEnds = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    (method, path, body) => {
      if (method !== 'PUT' || !/\/leases\/[^/]+\.shard-0\/[0-9]{8}$/.test(path) || !body.includes('"kind":"release"'))
        return;
      released = true;
      if (held.release) releasedUnderCall = true;
    },
    (method, path, body) => {
      // The first site's end, on every attempt the SDK makes (3): the lane that ran it fails STORE_FAILED.
      if (method !== 'PUT' || !/\/waves\/1\/log\/[0-9]{8}$/.test(path) || !body.includes('"kind":"ended"')) return;
      if (failedEnds >= 3) return;
      failedEnds += 1;
      return SLOW_DOWN;
    },
  );
  const f = await shardFleet(
    t,
    2,
    '  over: site\n  waves: [rest]\n  max-parallel: 2',
    {
      // The first system update is held before it reaches the API, until the test lets it go.
      before: (method, path) => {
        if (held.site || method !== 'POST' || !path.endsWith('/update/system')) return;
        held.site = /site-[0-9]{4}/.exec(path)?.[0] ?? 'unknown';
        return new Promise<void>((resolve) => (held.release = resolve));
      },
    },
    { store: { url: ceph.storeUrl(`lane-fault-${Date.now()}`, proxy), env: ceph.env } },
  );
  // Verified against the source's Engines: a worker that took the site over would prove it not applied, and send it.
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      'with: { target: prod }',
      'with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }\n    longest: 1s',
    ),
  );
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  const args = (index: string, ...more: string[]) => [
    'run',
    f.file,
    '--store',
    f.storeUrl,
    '--run',
    run,
    '--shard',
    index,
    ...more,
  ];
  const first = workerProcess(args('1/2', '--shard-ttl', '10m'), { ...f.env, SITE_USER: 'worker-1' });
  t.after(() => first.child.kill('SIGKILL'));
  let said = '';
  first.child.stdout!.on('data', (c) => (said += c));
  // The held write in one lane, the store's fault in the other; then the worker either gives its
  // lease up at once, or says it waits for the site it has in flight.
  await until(
    () => held.release !== undefined && failedEnds === 3 && (released || /in flight/.test(said)),
    first,
    'its write was held and its store failed',
  );
  // Another worker, on a clock 3 minutes on (past the held call's `longest:`, within the first's 10m lease).
  const real = realClock();
  const later = { now: () => real.now() + 180_000, sleep: real.sleep };
  const second = await runCli(args('2/2', '--shard-wait', '1s'), {
    env: { ...f.env, SITE_USER: 'worker-2' },
    clock: later,
  });
  held.release!();
  held.release = undefined;
  const stopped = await first.done;
  assert.equal(f.applied('/update/system')[held.site!], 1, `${held.site}'s update applied once: ${second.stdout}`);
  assert.doesNotMatch(second.stdout, new RegExp(`${held.site}: taken over`), second.stdout + second.stderr);
  assert.equal(second.code, 75, second.stdout + second.stderr);
  assert.equal(stopped.code, 1, stopped.out);
  assert.match(stopped.out, /HTTP 503 SlowDown/);
  assert.match(stopped.out, /code: STORE_FAILED/);
  assert.ok(!releasedUnderCall, `the lease was released while its call was in flight: ${stopped.out}`);
});
