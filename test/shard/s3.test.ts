// A sharded run whose store is S3 (Ceph's RADOS Gateway, one cluster for this file:
// test/helpers/ceph.ts), end to end through the CLI: the plan, two queue workers over two waves
// with one budget, and the merged result, all kept in the bucket. The directory store's runs are
// test/shard/shard.test.ts; here the same protocol runs on conditional PUTs and paged lists.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, test, type TestContext } from 'node:test';
import { proxyInFront } from '../helpers/s3-proxy.ts';
import { runCli } from '../helpers/cli.ts';
import { realClock } from '../../src/app/clock.ts';
import { READ_AGAIN_AFTER_MS } from '../../src/app/lease-fence.ts';
import { S3Store } from '../../src/store/s3.ts';
import { startCeph } from '../helpers/ceph.ts';
import { shardFleet, workerProcess } from './helpers.ts';

const ceph = await startCeph();
after(() => ceph.stop());

/** Until `paused()`; fails the test if the worker ends before that. */
async function untilPaused(paused: () => boolean, worker: { done: Promise<{ out: string }> }): Promise<void> {
  let ended: string | undefined;
  void worker.done.then((d) => (ended = d.out));
  while (!paused()) {
    if (ended !== undefined) assert.fail(`the first worker ended before it was paused: ${ended}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The requests a site's emulator received to `path`, whatever it answered. */
const sent = (
  f: { sites: { started(): Iterable<[string, { requests: { path: string }[] }]> } },
  site: string,
  path: string,
) =>
  [...f.sites.started()].find(([name]) => name === site)?.[1].requests.filter((r) => r.path.endsWith(path)).length ?? 0;

/** Waits out a lease's ttl and a second, from now: a worker stopped now holds its lease no longer (its clock says so too). */
const lapse = (ttlMs: number) => new Promise((resolve) => setTimeout(resolve, ttlMs + 1_000));

/**
 * A 2-site queue run in the bucket through `proxy`, its system update verified against the source's
 * Engines (`longest: 1s`: past it, and monitoring's lag, verify proves an update not applied):
 * worker 1 started as a process with `--shard-ttl ttl` (`started` is told its child at once, before
 * it sends anything), and `taker()` runs worker 2 in this process on a clock 3 minutes on. The taker's
 * own lease is 10 minutes, so that no renewal of it is due while the test runs: a loaded machine
 * cannot make it lapse (with the first worker's short ttl it once did, and the taker stopped).
 */
async function pausedTakeover(
  t: TestContext,
  proxy: string,
  prefix: string,
  ttl: string,
  started: (child: ChildProcess) => void,
) {
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl(prefix, proxy), env: ceph.env },
  });
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace(
      'with: { target: prod }',
      'with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }\n    longest: 1s',
    ),
  );
  const run = (await f.shard('--shards', '2', '--assign', 'queue')).run;
  const args = (index: string, leaseTtl: string) => [
    'run',
    f.file,
    '--store',
    f.storeUrl,
    '--run',
    run,
    '--shard',
    index,
    '--shard-ttl',
    leaseTtl,
  ];
  const first = workerProcess(args('1/2', ttl), { ...f.env, SITE_USER: 'worker-1' });
  started(first.child);
  t.after(() => first.child.kill('SIGKILL'));
  const real = realClock();
  const later = { now: () => real.now() + 180_000, sleep: real.sleep };
  // The server's clock 3 minutes on too: the taker's clock is not ahead of it.
  const taker = () => {
    f.server.now = () => Date.now() + 180_000;
    return runCli(args('2/2', '10m'), { env: { ...f.env, SITE_USER: 'worker-2' }, clock: later });
  };
  return { f, run, first, taker };
}

test('a sharded run in an S3 bucket: two queue workers, two waves, every site written once, the merged report from the bucket names all; one probe a process, the wave logs a sequence', async (t) => {
  const prefix = 'fleet-runs';
  const f = await shardFleet(t, 8, '  over: site\n  waves: [[site-0001], rest]\n  max-failures: 0', undefined, {
    store: { url: ceph.storeUrl(prefix), env: ceph.env },
  });
  const planned = await f.shard('--shards', '2', '--assign', 'queue');
  const run = planned.run;
  assert.match(planned.stderr, new RegExp(`^run ${run} in s3://`, 'm'));
  const [a, b] = await Promise.all([f.worker(run, '1/2'), f.worker(run, '2/2')]);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  assert.equal(b.code, 0, b.stdout + b.stderr);
  const counts = f.applied('/update/system');
  assert.deepEqual(Object.keys(counts).sort(), f.names);
  assert.ok(
    Object.values(counts).every((c) => c === 1),
    JSON.stringify(counts),
  );
  const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  assert.deepEqual(
    [...new Set(merged.report!.steps.map((s) => s.matrix?.site))].sort(),
    f.names,
    'every site has its rows',
  );
  assert.ok(
    merged.report!.steps.every((s) => s.outcome === 'success'),
    'every row a success',
  );
  // What the bucket holds: a probe for each process that opened the store to write (the plan, two
  // workers), not one per site; each wave's log numbered without a gap, a start for each of its sites.
  const store = new S3Store(ceph.storeUrl(prefix), ceph.env);
  t.after(() => store.close());
  assert.equal((await store.list('probes/')).length, 3, 'probe keys');
  for (const [wave, sites] of [
    [1, 1],
    [2, 7],
  ] as const) {
    const keys = await store.list(`shards/${run}/waves/${wave}/log/`);
    assert.deepEqual(
      keys.map((k) => Number(k.slice(k.lastIndexOf('/') + 1))),
      keys.map((_, i) => i + 1),
      `wave ${wave}'s log is a sequence`,
    );
    const starts = [];
    for (const key of keys) {
      const entry = JSON.parse((await store.get(key))!.toString('utf8')) as { kind: string; site: string };
      if (entry.kind === 'start') starts.push(entry.site);
    }
    assert.equal(new Set(starts).size, sites, `wave ${wave}: ${starts.join(', ')}`);
    assert.equal(starts.length, sites, `wave ${wave}: each site started once`);
  }
});

test("a worker paused once its write's record is in the bucket, the write not sent yet: woken after the takeover, it checks its lease again and sends nothing; the write is applied once, by the worker that took the site over", async (t) => {
  const paused: { child?: ChildProcess; site?: string } = {};
  // A proxy in front of RGW, headers untouched (the Host header is signed): the first worker is
  // stopped as the answer to the PUT of its system update's record comes back, before it has it.
  const proxy = await proxyInFront(t, ceph.endpoint, (method, path, body) => {
    if (paused.site || method !== 'PUT' || !path.includes('/journal/') || !/"t":"send"/.test(body)) return;
    if (!body.includes('/update/system')) return;
    paused.site = /site-[0-9]{4}/.exec(body)?.[0] ?? 'unknown';
    paused.child!.kill('SIGSTOP');
  });
  const { f, first, taker } = await pausedTakeover(t, proxy, 'paused-record', '60s', (child) => (paused.child = child));
  await untilPaused(() => paused.site !== undefined, first);
  // Paused long enough for its record to count as slow (it reads its lease again before the write
  // leaves), not so long that its own clock says its lease lapsed.
  await new Promise((resolve) => setTimeout(resolve, READ_AGAIN_AFTER_MS + 100));
  // The other worker, on a clock 3 minutes on (the call long past, the paused one's lease lapsed on
  // that clock): it takes the site over, verify proves the update not applied, and it sends it.
  const second = await taker();
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(second.stdout, new RegExp(`${paused.site}: taken over`));
  assert.match(second.stdout, /verify: .*not-applied/);
  first.child.kill('SIGCONT');
  const woke = await first.done;
  assert.equal(woke.code, 69, woke.out);
  assert.match(woke.out, /its lease lapsed\b/);
  assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 }, 'each system update applied once');
  assert.equal(sent(f, paused.site!, '/update/system'), 1, 'the paused worker, woken, sent nothing');
});

for (const order of ['its segment lands first', "the taker's fence lands first"] as const)
  test(`a worker paused as it puts its site's first journal segment, ${order}: the worker that takes the site over fences the journal's next segment before it starts; the paused segment is read as the run it is (its call verified, sent once) or refused; the paused worker, woken, sends nothing and stops LEASE_LOST`, async (t) => {
    const paused: { child?: ChildProcess; prefix?: string; release?: () => void } = {};
    let landed: () => void = () => undefined;
    const hasLanded = new Promise<void>((resolve) => (landed = resolve));
    const proxy = await proxyInFront(
      t,
      ceph.endpoint,
      (method, path) => {
        if (paused.prefix && method === 'PUT' && path === `${paused.prefix}00000001`) landed();
      },
      async (method, path) => {
        if (method !== 'PUT' || !/\/runs\/[^/]+\/journal\/[0-9]+$/.test(path)) return;
        const prefix = path.slice(0, path.lastIndexOf('/') + 1);
        // The first worker's first segment: held, and the worker stopped, until the site is taken over.
        if (!paused.prefix) {
          paused.prefix = prefix;
          const held = new Promise<void>((resolve) => (paused.release = resolve));
          paused.child!.kill('SIGSTOP');
          return held;
        }
        // The first PUT of the worker that took the site over: the paused segment lands first, or after the taker is done.
        if (order === 'its segment lands first' && prefix === paused.prefix && paused.release) {
          paused.release();
          paused.release = undefined;
          await hasLanded;
        }
      },
    );
    const { f, run, first, taker } = await pausedTakeover(
      t,
      proxy,
      `paused-first-segment-${order.startsWith('its') ? 'late' : 'fenced'}`,
      '10s',
      (child) => (paused.child = child),
    );
    await untilPaused(() => paused.prefix !== undefined, first);
    await lapse(10_000);
    const second = await taker();
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /site-0001: taken over from shard 1/);
    if (order === "the taker's fence lands first") {
      assert.match(second.stdout, /site-0001: its run \S+ has no record in the store: started afresh/);
      paused.release?.();
      await hasLanded;
    }
    first.child.kill('SIGCONT');
    const woke = await first.done;
    assert.equal(woke.code, 69, woke.out);
    assert.match(woke.out, /its lease lapsed\b/);
    assert.deepEqual(
      f.applied('/update/system'),
      { 'site-0001': 1, 'site-0002': 1 },
      'each system update applied once',
    );
    assert.equal(sent(f, 'site-0001', '/update/system'), 1, 'the paused worker, woken, sent nothing');
    const merged = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
  });

test("a sharded run read before any site has a step in the bucket: planned and never started, a failure naming every site and shard (exit 1, the summary written); its worker holding its sites, their journals' first segments not landed yet, under way (exit 1), not a usage error", async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atPut = new Promise<void>((resolve) => (reached = resolve));
  let holding = false;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    async (method, path) => {
      if (!holding || method !== 'PUT' || !/\/runs\/[^/]+\/journal\/[0-9]+$/.test(path)) return;
      reached();
      return held;
    },
  );
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-parallel: 1', undefined, {
    store: { url: ceph.storeUrl('nothing-recorded', proxy), env: ceph.env },
  });
  const never = (await f.shard('--shards', '2')).run;
  const summary = `${f.dir}/never.md`;
  const none = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', never, '--summary', summary]);
  assert.equal(none.code, 1, none.stdout + none.stderr);
  assert.equal(none.report!.outcome, 'failure');
  assert.deepEqual(none.report!.merged?.noReport, [
    'site=site-0001',
    'site=site-0002',
    'shard 1/2 (no worker started)',
    'shard 2/2 (no worker started)',
  ]);
  assert.match(readFileSync(summary, 'utf8'), /no worker started/);
  holding = true;
  const run = (await f.shard('--shards', '1', '--new-run')).run; // beside the run planned above, on purpose
  const worker = f.worker(run, '1/1', '--shard-ttl', '1h');
  t.after(async () => (release(), await worker));
  await atPut;
  const during = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(during.code, 1, during.stdout + during.stderr);
  assert.equal(during.report!.outcome, 'under-way');
  assert.deepEqual(during.report!.merged?.underWay?.sites, ['site-0001']);
  assert.deepEqual(during.report!.merged?.underWay?.notStarted, ['site-0002']);
  assert.deepEqual(during.report!.merged?.noReport, []);
  assert.match(
    during.report!.steps.find((s) => s.matrix?.site === 'site-0001')!.error!.message,
    /^under way when this report was read: shard 1\/1 holds site-0001 \(its lease until \S+\); no step of it recorded yet$/,
  );
  release();
  const ended = await worker;
  assert.equal(ended.code, 0, ended.stdout + ended.stderr);
  const after = await f.cli(['report', '--merge', '--store', f.storeUrl, '--run', run]);
  assert.equal(after.code, 0, after.stdout + after.stderr);
});

test('two attempts of one index starting together both register: the one whose registration lost the race registers as the next attempt, not silently as the same one (its report says attempt 2)', async (t) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atPut = new Promise<void>((resolve) => (reached = resolve));
  let holds = 0;
  const proxy = await proxyInFront(
    t,
    ceph.endpoint,
    () => undefined,
    async (method, path) => {
      // Only the first attempt's registration is held: the second lists none and registers first.
      if (method !== 'PUT' || !/\/shards\/[^/]+\/workers\/00000\/00000001$/.test(path) || holds++ > 0) return;
      reached();
      return held;
    },
  );
  const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]', undefined, {
    store: { url: ceph.storeUrl('registration-race', proxy), env: ceph.env },
  });
  const run = (await f.shard('--shards', '1')).run;
  const first = f.worker(run, '1/1', '--shard-ttl', '1h');
  t.after(async () => (release(), await first));
  await atPut;
  const second = await f.worker(run, '1/1', '--shard-ttl', '1h');
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.equal(second.report!.shard!.attempt, 1);
  release();
  const late = await first;
  assert.equal(late.code, 0, late.stdout + late.stderr);
  assert.equal(late.report!.shard!.attempt, 2, 'the attempt whose registration was refused is the next one');
  const store = new S3Store(ceph.storeUrl('registration-race'), ceph.env);
  const registered = await store.list(`shards/${run}/workers/00000/`);
  assert.equal(registered.length, 2, `registrations: ${registered.join(', ')}`);
});
