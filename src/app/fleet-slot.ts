// One rollout of a fleet at a time, across plans made at once (two CI runs' plan jobs): the plans
// of a fleet (its pipeline and inventory hashes) are chained in the run store by create-only
// slots, ci/fleet/DIGEST/N, each naming the run planned in it. A planner reads the run of the
// fleet's last slot, then takes the next slot before it writes its manifest: two planners at once
// race for one slot and one wins; the other reads whose run holds it and stands aside while that
// run has not ended (a --new-run plan takes the next slot whatever it holds). The check of the store's runs (earlierRuns) reads manifests, which a planner
// writes last: a plan at once is seen here, by its slot, taken before its manifest.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { readShardRecord } from '../shard/manifest.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import type { Fleet } from './shard-plan.ts';

const SlotRecord = z.object({ run: z.string(), at: z.number() });

/**
 * Where a fleet's slots are kept: by its file and inventory, and the key's fingerprints of its
 * servers whose URL is a secret (another environment's fleet, planned at once, takes slots of its own).
 */
export const fleetSlots = (fleet: Fleet) =>
  `ci/fleet/${createHash('sha256')
    .update(JSON.stringify([fleet.sha256, fleet.inventory, ...(fleet.places ? [fleet.places] : [])]))
    .digest('hex')
    .slice(0, 40)}/`;

const slotKey = (prefix: string, n: number) => `${prefix}${String(n).padStart(8, '0')}`;

/**
 * Takes the fleet's next slot for `run`: undefined once it holds one (taken now, or by another
 * planner of its key); the run of the fleet that holds the last slot when it has not ended
 * (`open` says), the slot left untaken. `open` undefined (--new-run): the next slot is taken
 * whatever its holder, so the chain goes on past a planner that stopped before its manifest, and
 * the next plan sees this run.
 */
export async function takeSlot(
  store: RunStore,
  fleet: Fleet,
  run: string,
  at: number,
  open: ((run: string) => Promise<boolean>) | undefined,
): Promise<string | undefined> {
  const prefix = fleetSlots(fleet);
  const listed = (await store.list(prefix)).map((k) => Number(k.slice(prefix.length))).filter(Number.isInteger);
  // A listing may lag: a slot listed is read by name, and a slot found there by a create is read next.
  for (let last = listed.length === 0 ? -1 : Math.max(...listed); ; last += 1) {
    if (last >= 0 && open) {
      const holder = (await readShardRecord(store, slotKey(prefix, last), SlotRecord, "a fleet's plan slot"))?.run;
      if (holder === undefined)
        throw new StoreError(
          'STORE_FAILED',
          `${store.url}: ${slotKey(prefix, last)} was there to a create-only write or a listing, and not to a read`,
          {
            hint: 'a store that says so is not create-only as enginectl needs: check its consistency, then plan again',
          },
        );
      if (holder === run) return undefined;
      if (await open(holder)) return holder;
    }
    if (await store.create(slotKey(prefix, last + 1), Buffer.from(JSON.stringify({ run, at })))) return undefined;
  }
}
