// A lease's queue of waiters: each waiter's ticket is renewed while it waits (a heartbeat, as the
// lease's own), so a waiter that is gone (SIGKILL, a lost machine) holds no place in the line once
// the lease's ttl has passed without a renewal of its ticket, not for the whole of its wait; one
// that waits on keeps its place past that ttl.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { simulatedClock } from '../../src/app/clock.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, type HeldLease, type LeaseClock } from '../../src/store/lease.ts';
import { CLI, cleanEnv, runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const real: LeaseClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
const holder = (runId: string) => ({ runId, actor: 'tester', host: 'test-host' });

const PIPELINE = (wait: string) => `version: 1
name: Queued release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
lease: { name: L2, ttl: 3s, wait: ${wait} }
steps:
  - uses: monitoring/alerts
    with: { fail-on: none }
`;

test("a waiter killed while queued holds no place once the lease's ttl passed without its ticket's heartbeat: lease status shows no queue, and the next run takes the free lease then, not at the end of the dead waiter's wait", async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-queue-'));
  mkdirSync(join(dir, 'store'));
  const env = {
    ENGINE_URL: url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    ENGINECTL_STORE: pathToFileURL(join(dir, 'store')).href,
  };
  writeFileSync(join(dir, 'wait.yml'), PIPELINE('5m'));
  writeFileSync(join(dir, 'next.yml'), PIPELINE('60s'));
  const store = new DirectoryStore(env.ENGINECTL_STORE);
  const held = await acquireLease(store, 'L2', {
    holder: holder('holding'),
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: real,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  // The waiter, a process: queued (its ticket in the store), then killed with SIGKILL.
  const waiter = spawn(process.execPath, [CLI, 'run', join(dir, 'wait.yml')], { env: cleanEnv(env), stdio: 'ignore' });
  const gone = new Promise((resolve) => waiter.on('close', resolve));
  while (!(await store.list('leases/L2/queue/')).some((k) => /\/[0-9]{8}$/.test(k))) await real.sleep(20);
  waiter.kill('SIGKILL');
  await gone;
  await held.release();
  // A minute later (the lease's ttl is 3s; the waiter's wait, 5m, not over): its ticket has lapsed.
  const status = await runCli(['lease', 'status', 'L2'], { env, clock: simulatedClock(Date.now() + 60_000) });
  assert.equal(status.code, 0, status.stderr);
  assert.doesNotMatch(status.stdout, /queued/, status.stdout);
  // A run that waits (its lease on the real clock): it takes the free lease once that ticket lapsed,
  // not after the dead waiter's 5 minutes (before, it was refused at the end of its own wait).
  const next = await runCli(['run', join(dir, 'next.yml')], { env });
  assert.equal(next.code, 0, next.stdout + next.stderr);
});

test("a waiter that waits on keeps its place past the lease's ttl: its ticket is renewed while it waits (the simulated clock)", async () => {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-queue-'))).href);
  let now = 0;
  const order: string[] = [];
  let wake = () => {};
  const woken = new Promise<void>((r) => (wake = r));
  let tookIt = () => {};
  const took = new Promise<void>((r) => (tookIt = r));
  let released = false;
  // The ttl is 60s. The early waiter sleeps from 95s until the late one has looked at the free
  // lease once; the holder releases at 100s, in the late waiter's sleep, which looks first: the
  // early waiter's ticket, renewed while it waited, still holds its place (taken at 0s, it would
  // have lapsed at 60s).
  const early: LeaseClock = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      if (now >= 95_000) await woken;
      await new Promise((r) => setImmediate(r));
    },
  };
  const late: LeaseClock = {
    now: () => now,
    sleep: async (ms) => {
      if (released) {
        wake();
        await took;
      }
      now += ms;
      if (!released && now >= 100_000) {
        released = true;
        await first.release();
      }
    },
  };
  const options = (id: string, clock: LeaseClock) => ({
    holder: holder(id),
    ttlMs: 60_000,
    waitMs: 300_000,
    clock,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const first: HeldLease = await acquireLease(store, 'fleet', { ...options('holding', early), waitMs: 0 });
  const take = (id: string, clock: LeaseClock) =>
    acquireLease(store, 'fleet', options(id, clock)).then(async (lease) => {
      order.push(id);
      if (id === 'early') tookIt();
      await lease.release();
    });
  const waiting = take('early', early);
  while ((await store.list('leases/fleet/queue/')).length < 1) await real.sleep(5);
  await Promise.all([waiting, take('late', late)]);
  assert.deepEqual(order, ['early', 'late']);
});

test("tickets of an earlier enginectl and of this one, read by lease status: one renewed within its ttl holds its place past its until (its waiter confirms a lapse), one withdrawn or without a ttl past its until does not; this one's until is its deadline and a ttl more", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-queue-'));
  const store = new DirectoryStore(pathToFileURL(dir).href);
  const at = Date.parse('2026-12-01T10:00:00Z');
  const ticket = (n: number, body: object) =>
    store.create(`leases/L/queue/0000000${n}`, Buffer.from(JSON.stringify(body)));
  // 1: the previous enginectl's, its until (its deadline) passed at 10:01, renewed at 10:02 (its
  // waiter confirming a holder's lapse past its deadline). 2: the same, withdrawn. 3: an earlier
  // enginectl's without a ttl, its wait over at 10:01. 4: without a ttl, waiting until 10:10.
  await ticket(1, { runId: 'confirming', at, until: at + 60_000, ttl: 60_000 });
  await store.create(`leases/L/queue/00000001.beat.${at + 120_000}`, Buffer.from('{}'));
  await ticket(2, { runId: 'withdrawn', at, until: at + 60_000, ttl: 60_000 });
  await store.create(`leases/L/queue/00000002.beat.${at + 120_000}`, Buffer.from('{}'));
  await store.create('leases/L/queue/00000002.withdrawn', Buffer.from('{}'));
  await ticket(3, { runId: 'old-over', at, until: at + 60_000 });
  await ticket(4, { runId: 'old-waiting', at, until: at + 600_000 });
  const env = { ENGINECTL_STORE: pathToFileURL(dir).href };
  const status = await runCli(['lease', 'status', 'L'], { env, clock: simulatedClock(at + 150_000) });
  assert.equal(status.code, 0, status.stderr);
  assert.equal(
    status.stdout,
    [
      'lease L: never taken',
      '  queued: run confirming (ticket 1), its place renewed at 2026-12-01T10:02:00.000Z',
      '  queued: run old-waiting (ticket 4), waiting until 2026-12-01T10:10:00.000Z',
      '',
    ].join('\n'),
  );
  // A waiter of this enginectl at 10:01:30 (wait: 30s, behind tickets 1 and 4) writes its deadline and a ttl
  // more as its until, for the readers of an earlier one; it withdraws its ticket at its deadline.
  let now = at + 90_000;
  const simulated: LeaseClock = { now: () => now, sleep: async (ms) => void (now += ms) };
  await assert.rejects(
    acquireLease(store, 'L', {
      holder: holder('waiting'),
      ttlMs: 60_000,
      waitMs: 30_000,
      clock: simulated,
      verifyTakeover: async () => ({ evidence: [] }),
    }),
    /the 2 run\(s\) queued before this one; waited 30s/,
  );
  assert.deepEqual(JSON.parse((await store.get('leases/L/queue/00000005'))!.toString()), {
    runId: 'waiting',
    at: at + 90_000,
    until: at + 180_000,
    ttl: 60_000,
  });
  assert.ok(await store.get('leases/L/queue/00000005.withdrawn'), 'withdrawn at its deadline');
});

test("a run that does not wait, behind a waiter queued for a holder gone an hour: refused as held by the run queued before it, the holder said lapsed, not 'held until' an hour ago", async () => {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-queue-'))).href);
  let now = 0;
  const simulated: LeaseClock = { now: () => now, sleep: async (ms) => void (now += ms) };
  await acquireLease(store, 'fleet', {
    holder: holder('gone'),
    ttlMs: 60_000,
    waitMs: 0,
    clock: simulated,
    verifyTakeover: async () => ({ evidence: [] }),
  });
  // An hour on, a waiter of another machine is queued (ticket 1, just renewed): it takes the lease over in its turn.
  now = 3_600_000;
  await store.create(
    'leases/fleet/queue/00000001',
    Buffer.from(JSON.stringify({ runId: 'queued', at: now, until: now + 600_000, ttl: 60_000 })),
  );
  await assert.rejects(
    acquireLease(store, 'fleet', {
      holder: holder('next'),
      ttlMs: 60_000,
      waitMs: 0,
      clock: simulated,
      verifyTakeover: async () => ({ evidence: [] }),
    }),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'LEASE_HELD');
      assert.equal(
        error.message,
        'lease fleet is held by the 1 run(s) queued before this one, which take it in turn: its holder, run gone of tester on test-host, lapsed (its hold ran until 1970-01-01T00:01:00.000Z on its clock); this run does not wait (wait: 0s)',
      );
      return true;
    },
  );
});

test("a waiter confirming the lapse of a holder whose ttl is longer than its own: its ticket's until, read by an earlier enginectl (which drops a ticket once its until passed), covers its whole wait", async () => {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-queue-'))).href);
  let now = 0;
  // The holder (a ttl of 5m) takes the lease at 0 and is gone: its expiry at 5m, never renewed.
  await acquireLease(store, 'fleet', {
    holder: holder('gone'),
    ttlMs: 300_000,
    waitMs: 0,
    clock: { now: () => now, sleep: async (ms) => void (now += ms) },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  // An earlier enginectl's reader of the queue: a ticket holds its place while its until is ahead
  // and, with a ttl, while renewed within it (0b3226a5 queuedRuns).
  const earlierReads = async (at: number) => {
    const keys = await store.list('leases/fleet/queue/');
    const tickets = keys.filter((k) => /\/[0-9]{8}$/.test(k) && !keys.includes(`${k}.withdrawn`));
    return tickets.map(async (k) => {
      const t = JSON.parse((await store.get(k))!.toString()) as { until: number; at: number; ttl?: number };
      const beats = keys.flatMap((b) => (b.startsWith(`${k}.beat.`) ? [Number(b.slice(`${k}.beat.`.length))] : []));
      const renewed = Math.max(t.at, ...beats);
      return t.until > at && !(t.ttl !== undefined && at > renewed + t.ttl);
    });
  };
  // Dropped by that reader while this waiter still waits in its place (confirming the lapse).
  const dropped: number[] = [];
  now = 295_000;
  const lease = await acquireLease(store, 'fleet', {
    holder: holder('next'),
    // Its own ttl 1m, its wait 10s (its deadline at 5m05s): the holder's expiry passes at 5m, and
    // its lapse is confirmed once its record stayed unchanged for the holder's ttl (at 9m55s).
    ttlMs: 60_000,
    waitMs: 10_000,
    clock: {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
        for (const live of await Promise.all(await earlierReads(now))) if (!live) dropped.push(now);
      },
    },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  assert.equal(now, 595_000, 'taken once the lapse is confirmed');
  await lease.release();
  assert.deepEqual(dropped.slice(0, 1), [], `an earlier enginectl passes over its ticket from ${dropped[0]}ms on`);
});
