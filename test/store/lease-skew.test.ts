// A lease's expiry is written on its holder's clock; a waiter whose clock runs ahead of it must not
// take the lease over while the holder's own clock still says it holds it (the holder, paused,
// may send one more write then, after the takeover's verify read its calls: never read back).
// The waiter confirms the lapse on its own clock. Two clocks over one simulated real time: each
// sleep moves that time, and each clock reads it with its own offset.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease, leaseState, type LeaseClock } from '../../src/store/lease.ts';
import { runCli } from '../helpers/cli.ts';

const holder = (runId: string) => ({ runId, actor: 'tester', host: 'test-host' });
const TTL = 60_000;

/** One real time (`real.t`), read by clocks `offset` apart; a sleep on any moves it. */
function world() {
  const real = { t: 0 };
  const clock = (offset: number): LeaseClock => ({
    now: () => real.t + offset,
    sleep: async (ms) => void (real.t += ms),
  });
  return { real, clock };
}

async function skewed(offset: number, arrives: number, waitMs = 30 * 60_000) {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-skew-'))).href);
  const { real, clock } = world();
  const held = await acquireLease(store, 'fleet', {
    holder: holder('paused'),
    ttlMs: TTL,
    waitMs: 0,
    clock: clock(0),
    verifyTakeover: async () => ({ evidence: [] }),
  });
  // The holder pauses here: no renewal. Its own clock says it holds the lease until its expiry.
  const expiry = (await leaseState(store, 'fleet'))!.record.expiresAt;
  assert.equal(expiry, TTL);
  real.t = arrives;
  const waits: string[] = [];
  const next = await acquireLease(store, 'fleet', {
    holder: holder('next'),
    ttlMs: TTL,
    waitMs,
    clock: clock(offset),
    onWait: (m) => waits.push(m),
    verifyTakeover: async () => ({ evidence: ['nothing in doubt'] }),
  });
  const taken = (await leaseState(store, 'fleet'))!.record;
  assert.equal(taken.kind, 'takeover');
  // The real time of the takeover: its record's time, less the waiter's offset.
  return { at: taken.at - offset, expiry, waits, taken, held, next };
}

test("a waiter whose clock runs 30s ahead of a paused holder's, arriving before the holder's expiry: it takes the lease over only once the holder's own clock passed its expiry, saying when it will", async () => {
  const { at, expiry, waits, taken } = await skewed(30_000, 35_000);
  assert.ok(at > expiry, `taken over at ${at} (real time), before the holder's own expiry at ${expiry}`);
  // Not long after: the record unchanged for its ttl since first read, or its expiry a ttl past on this clock.
  assert.ok(at <= expiry + TTL, `taken over at ${at}: later than a ttl past the holder's expiry`);
  assert.match(
    waits.join('\n'),
    /its expiry passed on this runner's clock, and it may be taken over from \S+ on \(in its turn in the queue\) unless renewed before/,
  );
  assert.match(
    taken.evidence?.[0] ?? '',
    /^took over from run paused .*, expired at \S+ \(more than its ttl of 1m before, on this runner's clock\)$/,
  );
});

test("a waiter 50s ahead, arriving just after the holder took the lease: still not before the holder's expiry on the holder's clock (its record unchanged for the ttl since first read)", async () => {
  const { at, expiry, taken } = await skewed(50_000, 1_000);
  assert.ok(at > expiry, `taken over at ${at} (real time), before the holder's own expiry at ${expiry}`);
  assert.match(taken.evidence?.[0] ?? '', /\(its record unchanged for its ttl of 1m on this runner's clock\)$/);
});

test("a waiter on the holder's clock that arrives an hour after the holder died takes the lease over at once", async () => {
  const { at, waits } = await skewed(0, 3_600_000);
  assert.equal(at, 3_600_000);
  assert.deepEqual(waits, []);
});

test("a run that does not wait (wait: 0s), its clock 30s ahead of a paused holder's whose expiry it reads passed: it confirms the lapse on its clock, and takes over only after the holder's own expiry", async () => {
  const { at, expiry } = await skewed(30_000, 35_000, 0);
  assert.ok(at > expiry, `taken over at ${at} (real time), before the holder's own expiry at ${expiry}`);
});

/**
 * A live holder of a 60s lease `fleet` that renews every 20s of real time, whatever the other
 * runner's sleeps, and that runner's clock, 90s ahead (its sleeps counted: past 200, it fails).
 */
async function liveHolderAhead() {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-skew-'))).href);
  const { real, clock } = world();
  const held = await acquireLease(store, 'fleet', {
    holder: holder('live'),
    ttlMs: TTL,
    waitMs: 0,
    clock: clock(0),
    verifyTakeover: async () => ({ evidence: [] }),
  });
  let renewed = 0;
  let polls = 0;
  const ahead: LeaseClock = {
    now: () => real.t + 90_000,
    sleep: async (ms) => {
      if (++polls > 200) throw new Error(`still waiting after ${polls - 1} polls, ${real.t / 1000}s of real time`);
      real.t += ms;
      while (real.t - renewed >= 20_000) {
        renewed += 20_000;
        await held.renew();
      }
    },
  };
  return { store, ahead };
}

test('a run that does not wait (wait: 0s), its clock 90s ahead of a live holder of a 60s lease that renews every 20s: refused (LEASE_HELD) once it reads a renewal, not waiting as long as the holder lives', async () => {
  const { store, ahead } = await liveHolderAhead();
  await assert.rejects(
    acquireLease(store, 'fleet', {
      holder: holder('next'),
      ttlMs: TTL,
      waitMs: 0,
      clock: ahead,
      verifyTakeover: async () => ({ evidence: ['nothing in doubt'] }),
    }),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'LEASE_HELD', error.message);
      return true;
    },
  );
  assert.equal((await leaseState(store, 'fleet'))!.record.holder.runId, 'live');
});

/**
 * One real time for actors that wait at once: each sleeps until a real time, and the time moves to
 * the earliest of them once every actor sleeps (or is done), waking that one alone.
 */
function scheduled(actors: number) {
  const real = { t: 0 };
  let awake = actors;
  const sleepers: { at: number; wake: () => void }[] = [];
  const next = () => {
    if (awake > 0 || sleepers.length === 0) return;
    sleepers.sort((a, b) => a.at - b.at);
    const first = sleepers.shift()!;
    real.t = Math.max(real.t, first.at);
    awake++;
    first.wake();
  };
  const clock = (offset: number): LeaseClock => ({
    now: () => real.t + offset,
    sleep: (ms) =>
      new Promise<void>((wake) => {
        sleepers.push({ at: real.t + ms, wake });
        awake--;
        next();
      }),
  });
  const done = () => {
    awake--;
    next();
  };
  return { real, clock, done };
}

test("two waiters on a paused holder's lease: the first in line, its wait extended past its deadline while it confirms the lapse, takes it before the second, whose clock runs 30s ahead", async () => {
  const store = new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-skew-'))).href);
  const { real, clock, done } = scheduled(2);
  // The holder takes the lease at 0 (its expiry at 60s on its clock) and pauses: no renewal.
  await acquireLease(store, 'fleet', {
    holder: holder('paused'),
    ttlMs: TTL,
    waitMs: 0,
    clock: clock(0),
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const order: string[] = [];
  const refused: string[] = [];
  const waiter = async (id: string, offset: number, arrives: number, waitMs: number) => {
    const own = clock(offset);
    try {
      await own.sleep(arrives - real.t);
      const lease = await acquireLease(store, 'fleet', {
        holder: holder(id),
        ttlMs: TTL,
        waitMs,
        clock: own,
        verifyTakeover: async () => ({ evidence: ['nothing in doubt'] }),
      });
      order.push(id);
      await lease.release();
    } catch (error) {
      refused.push(`${id}: ${(error as Error).message}`);
    } finally {
      done();
    }
  };
  // The first arrives at 50s with a wait of 30s (its deadline at 80s): it reads the expiry pass at
  // 60s, and confirms the lapse at 110s (the record unchanged for the ttl since it first read it),
  // waiting past its deadline. The second arrives at 55s, its clock 30s ahead: it confirms the lapse
  // at 90s of real time (the expiry a whole ttl past on its clock), and must wait for the first.
  await Promise.all([waiter('first', 0, 50_000, 30_000), waiter('second', 30_000, 55_000, 600_000)]);
  assert.deepEqual(refused, []);
  assert.deepEqual(order, ['first', 'second']);
});

for (const sameRun of [false, true])
  test(`a refusal by a runner whose clock runs 90s ahead of a live holder's${sameRun ? ' (a run held by another runner of it)' : ''}: the expiry it names, past on its clock, is said as the holder's renewal on its own clock, past on this one, and the hint says to check the clocks`, async () => {
    const { store, ahead } = await liveHolderAhead();
    const refused = await acquireLease(store, 'fleet', {
      holder: holder(sameRun ? 'live' : 'next'),
      ttlMs: TTL,
      waitMs: 0,
      clock: ahead,
      sameRun,
      verifyTakeover: async () => ({ evidence: ['nothing in doubt'] }),
    }).then(
      () => assert.fail('taken from a live holder'),
      (error: Error & { code?: string; hint?: string }) => error,
    );
    assert.equal(refused.code, 'LEASE_HELD', refused.message);
    const named =
      /whose hold was renewed until (\S+) on its clock \(past on this runner's by (\S+): the clocks are apart, or it renews still\)/.exec(
        refused.message,
      );
    assert.ok(named, refused.message);
    const expiry = Date.parse(named[1]!);
    assert.ok(expiry < ahead.now(), `${named[1]} is not past on the refusing runner's clock`);
    assert.doesNotMatch(refused.message, /until \S+Z[;:]/, 'an expiry past on this clock said as a hold until then');
    assert.match(
      refused.hint ?? '',
      /if it still renews, this runner's clock runs more than \S+ ahead of test-host's: set them right \(NTP\)/,
    );
    assert.doesNotMatch(refused.hint ?? '', /lapses at/, 'a lapse at an instant already past');
  });

test("lease status on a clock past a holder's expiry by less than its ttl: held until then on the holder's clock, past on this one (gone, or the clocks apart), not 'expired'; a whole ttl past, expired", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lease-skew-'));
  const store = new DirectoryStore(pathToFileURL(dir).href);
  const at = Date.parse('2026-12-01T10:00:00Z');
  await acquireLease(store, 'fleet', {
    holder: holder('live'),
    ttlMs: TTL,
    waitMs: 0,
    clock: { now: () => at, sleep: async () => {} },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const env = { ENGINECTL_STORE: pathToFileURL(dir).href };
  // A clock fixed at `ms` past the holder's acquire.
  const status = (ms: number) =>
    runCli(['lease', 'status', 'fleet'], { env, clock: { now: () => at + ms, sleep: async () => {} } });
  const behind = await status(TTL + 30_000);
  assert.equal(behind.code, 0, behind.stderr);
  assert.equal(
    behind.stdout,
    'lease fleet: held by run live of tester on test-host until 2026-12-01T10:01:00.000Z on its clock, past on this one by 30s (its holder is gone, or the clocks are apart and it renews still: a waiter takes it over once its record stays unchanged for its ttl of 1m)\n',
  );
  assert.match(
    (await status(2 * TTL + 1_000)).stdout,
    /^lease fleet: expired by run live of tester on test-host, since 2026-12-01T10:01:00\.000Z\n$/,
  );
  assert.match(
    (await status(30_000)).stdout,
    /^lease fleet: held by run live of tester on test-host, until 2026-12-01T10:01:00\.000Z\n$/,
  );
});
