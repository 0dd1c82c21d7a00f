// Whether another worker of a sharded run is gone, for a worker that would take its sites over (or
// its place as the wave's analyst): its lease moved past it, or lapsed. A lapse is confirmed on
// this worker's clock first (store/lapse.ts, up to that lease's ttl): time the job spends waiting,
// so it is spent from its --shard-wait as its other waits are, and once that is spent the worker
// stops confirming, takes nothing over and parks at its next wait (a later job goes on).
import { hostname } from 'node:os';
import { formatDuration } from '../duration.ts';
import { workerLease, workerLeaseWords, type Manifest } from '../shard/manifest.ts';
import { acquireLease, LeaseError, leaseState, type HeldLease } from '../store/lease.ts';
import type { Clock } from './clock.ts';
import type { ShardWorkerRequest } from './shard-request.ts';

/** The confirmation's wait cut where --shard-wait is spent: caught below, never thrown further. */
class WaitSpent extends Error {}

/**
 * Whether attempt `holder` of worker W is gone: its lease moved past it (released, taken, a new
 * attempt), or lapsed, which this worker then takes (the next key of its sequence) and gives back at
 * once, so that attempt sends nothing more: the lapse confirmed on this clock first (store/lapse.ts,
 * up to that lease's ttl; cut by the worker's signal, or by its --shard-wait spent: nothing taken).
 * A live lease is trusted until its expiry, unread.
 */
export function goneCheck(request: ShardWorkerRequest, manifest: Manifest, me: string) {
  const { store, clock, signal, ttlMs, waitBudget } = request;
  const aliveUntil = new Map<string, number>();
  /** The attempts whose confirmation the budget cut, said once each (each of the worker's reads tries again). */
  const cut = new Set<string>();
  // Its sleeps while it confirms end where the budget does: what is left of it, then no more.
  const bounded: Clock = {
    now: clock.now,
    sleep: async (ms, s) => {
      const left = waitBudget.left();
      if (left <= 0) throw new WaitSpent();
      await clock.sleep(Math.min(ms, left), s);
    },
  };
  return async (worker: number, holder: string): Promise<boolean> => {
    if ((aliveUntil.get(holder) ?? 0) > clock.now()) return false;
    const name = workerLease(manifest.run, worker);
    const state = await leaseState(store, name);
    if (!state || state.record.holder.runId !== holder || state.record.kind === 'release') return true;
    if (clock.now() <= state.record.expiresAt) {
      aliveUntil.set(holder, state.record.expiresAt);
      return false;
    }
    let taken: HeldLease;
    try {
      taken = await waitBudget.waiting(() =>
        acquireLease(store, name, {
          holder: { runId: me, actor: 'enginectl', host: hostname() },
          // This worker's own ttl: its place in that lease's queue, renewed while it confirms the
          // lapse, outlives its reads (a ttl shorter than them would lapse it, a ticket taken again at each).
          ttlMs,
          waitMs: 0,
          clock: bounded,
          // Its lapse confirmed on this clock may take up to that lease's ttl: an interrupted worker takes nothing over.
          signal,
          verifyTakeover: async () => ({
            evidence: [`its sites are taken over by attempt ${me}, their journals resumed with verify`],
          }),
          called: workerLeaseWords(manifest.run, worker, manifest.shards),
        }),
      );
    } catch (error) {
      if (error instanceof WaitSpent && !signal.aborted) {
        if (!cut.has(holder))
          request.say(
            `shard ${worker + 1}: its lease lapsed on this runner's clock, not confirmed before this job's --shard-wait (${formatDuration(waitBudget.limitMs)}) was spent: this worker takes none of its ${manifest.over}s over; it parks at its next wait, and the same command goes on`,
          );
        cut.add(holder);
        return false;
      }
      if (error instanceof LeaseError || signal.aborted) return false;
      throw error;
    }
    await taken.release().catch(() => undefined);
    return true;
  };
}
