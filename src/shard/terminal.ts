// A site's terminal record in a sharded run (`shards/RUN/sites/SITE`): written once, by the worker
// whose run of the site ended, with the outcome and the site's run (its journal in the store).
// The merged report reads each site's run from it (the wave's log says when a site ended).
import { z } from 'zod';
import type { RunStore } from '../store/store.ts';
import { readShardRecord, shardKeys } from './manifest.ts';

export const Terminal = z.object({
  site: z.string(),
  wave: z.int().positive(),
  outcome: z.enum(['success', 'failure']),
  worker: z.int(),
  siteRun: z.string(),
  at: z.number(),
  /** Why it failed, in a line. */
  detail: z.string().optional(),
});
export type Terminal = z.infer<typeof Terminal>;

/** Writes a site's terminal record; false when one was there already (another worker's, which stands). */
export const writeTerminal = (store: RunStore, run: string, t: Terminal) =>
  store.create(shardKeys(run).site(t.site), Buffer.from(JSON.stringify(t)));

export const readTerminal = (store: RunStore, run: string, site: string): Promise<Terminal | undefined> =>
  readShardRecord(store, shardKeys(run).site(site), Terminal, "a site's record");
