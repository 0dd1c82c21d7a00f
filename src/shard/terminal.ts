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

/**
 * A site's key as an enginectl before 4345893 wrote it: each UTF-16 unit outside [A-Za-z0-9._-] as
 * =XX of its value (zürich: s-z=fcrich; 中 and Ӣd shared one), unbounded.
 */
const earlierSiteKey = (site: string) =>
  `s-${site.replace(/[^A-Za-z0-9._-]/g, (c) => `=${c.codePointAt(0)!.toString(16).padStart(2, '0')}`)}`;

/**
 * A site's terminal record: at its key, or, when none is there, at the key an earlier enginectl
 * gave it (one job of the rollout on it) when the record there names this site.
 */
export async function readTerminal(store: RunStore, run: string, site: string): Promise<Terminal | undefined> {
  const found = await readShardRecord(store, shardKeys(run).site(site), Terminal, "a site's record");
  const key = earlierSiteKey(site);
  const earlier = `${shardKeys(run).sites}${key}`;
  // Past a file name's 255 bytes no directory store held one (on S3, such a record is left unread).
  if (found || earlier === shardKeys(run).site(site) || key.length > 255) return found;
  const then = await readShardRecord(store, earlier, Terminal, "a site's record");
  return then?.site === site ? then : undefined;
}
