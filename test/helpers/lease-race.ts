// Rounds of runners racing for one lease at once, on any run store: the lease tests of the
// directory store and of S3 (Ceph's RGW) share it.
import assert from 'node:assert/strict';
import { acquireLease, LeaseError, type LeaseClock } from '../../src/store/lease.ts';
import type { RunStore } from '../../src/store/store.ts';

const clock: LeaseClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
const holder = (runId: string) => ({ runId, actor: 'tester', host: 'test-host' });

/** 1,000 rounds of 2-8 acquirers at once on a fresh lease of `store`: exactly one holder each round. */
export async function raceRounds(store: RunStore, rounds: number, concurrent: number): Promise<number[]> {
  const winners: number[] = [];
  for (let base = 0; base < rounds; base += concurrent) {
    await Promise.all(
      Array.from({ length: Math.min(concurrent, rounds - base) }, async (_, i) => {
        const round = base + i;
        const n = 2 + (round % 7);
        const outcomes = await Promise.allSettled(
          Array.from({ length: n }, (_, k) =>
            acquireLease(store, `race-${round}`, {
              holder: holder(`r${round}-${k}`),
              ttlMs: 60_000,
              waitMs: 0,
              clock,
              verifyTakeover: async () => ({ evidence: [] }),
            }),
          ),
        );
        for (const o of outcomes)
          if (o.status === 'rejected')
            assert.ok(o.reason instanceof LeaseError && o.reason.code === 'LEASE_HELD', String(o.reason));
        winners[round] = outcomes.filter((o) => o.status === 'fulfilled').length;
      }),
    );
  }
  return winners;
}
