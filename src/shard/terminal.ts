// A site's terminal record in a sharded run (`shards/RUN/sites/SITE`): written once, by the worker
// whose run of the site ended, with the outcome and the site's run (its journal in the store).
// A wave's barrier is every site of it having one; the merged report reads each site's run.
import { z } from 'zod';
import { StoreError, type RunStore } from '../store/store.ts';
import { shardKeys, siteKey } from './manifest.ts';

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

/** The sites (as keys) that have a terminal record. */
export async function terminalKeys(store: RunStore, run: string): Promise<Set<string>> {
  const prefix = shardKeys(run).sites;
  return new Set((await store.list(prefix)).map((k) => k.slice(prefix.length)));
}

export const hasTerminal = (keys: ReadonlySet<string>, site: string) => keys.has(siteKey(site));

export async function readTerminal(store: RunStore, run: string, site: string): Promise<Terminal | undefined> {
  const key = shardKeys(run).site(site);
  const body = await store.get(key);
  if (!body) return undefined;
  const parsed = Terminal.safeParse(JSON.parse(body.toString('utf8')));
  if (!parsed.success)
    throw new StoreError('STORE_FAILED', `${store.url}: ${key} is not a site's record of enginectl`, {
      hint: 'nothing but enginectl writes under shards/ in a run store',
    });
  return parsed.data;
}
