// A sharded run's manifest (enginectl shard): what every worker of the run agrees on, written once
// to the run store before any worker starts: the pipeline's and the inventory's hashes (a worker
// of another file or fleet is refused), the waves and their budgets, the number of shards and how
// sites are assigned to them. Static: a stable hash of the site picks its shard, so a retried
// shard runs the same sites. Queue: any worker claims the next site of the wave.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { StoreError, type RunStore } from '../store/store.ts';
import { parseOrReadAgain, parseStoreRecord } from '../store/record.ts';

/** The manifest's versions this enginectl reads: one of a later version is a newer enginectl's (STORE_VERSION). */
export const MANIFEST_VERSIONS = [1, 2] as const;

export const Manifest = z.object({
  /** 2: a site's success may ride on its lane's next start in the wave's log (wave-log.ts); a worker that knows only 1 refuses the run. */
  v: z.literal(MANIFEST_VERSIONS),
  run: z.string(),
  name: z.string(),
  file: z.string(),
  /** The pipeline's files and --var values, hashed with secrets masked (report --merge compares it). */
  sha256: z.string(),
  /** The sites, in order, hashed: another inventory is another fleet. */
  inventory: z.string(),
  /** The matrix key that names a site. */
  over: z.string(),
  shards: z.int().positive(),
  /** How many sites one worker runs at once (the rollout's max-parallel). */
  parallel: z.int().positive(),
  assign: z.enum(['static', 'queue']),
  waves: z.array(z.array(z.string())),
  /** How many sites of each wave may fail before no further site of it starts anywhere. */
  budgets: z.array(z.int().nonnegative()),
  /** Whether the rollout analyses (or bakes) between waves. */
  analysis: z.boolean(),
  at: z.number(),
  by: z.string(),
  /**
   * The servers whose URL holds a secret, by name (app/shard-servers.ts): masked, and with
   * ENGINECTL_JOURNAL_KEY the key's fingerprint of each URL under `salt`, `keyCheck` telling that
   * key from another; none when no URL holds a secret (or written by an older enginectl).
   */
  servers: z
    .object({
      salt: z.string().optional(),
      keyCheck: z.string().optional(),
      called: z.record(z.string(), z.object({ url: z.string(), fingerprint: z.string().optional() })),
    })
    .optional(),
  /**
   * With ENGINECTL_JOURNAL_KEY, the fleet's servers whose URL holds a secret as one digest of the
   * key's fingerprints, the same in every run under the key (app/shard-servers.ts fleetPlaces):
   * another environment's fleet is told by it. Absent without the key or such a server.
   */
  places: z.string().optional(),
});
export type Manifest = z.infer<typeof Manifest>;

/** Where a sharded run's state lives in the store: `shards/RUN/...`. */
export const shardKeys = (run: string) => {
  const root = `shards/${run}/`;
  return {
    root,
    manifest: `${root}manifest`,
    /** Every instance the run plans, by identity (written by shard before the manifest): what the merged report lists a halt left not started. */
    instances: `${root}instances`,
    /** Each attempt of shard I registers here: a shard no attempt registered is missing. */
    workers: (index: number) => `${root}workers/${String(index).padStart(5, '0')}/`,
    /** The log of wave K: the starts, takeovers and ends of its sites, one create-only key each. */
    waveLog: (wave: number) => `${root}waves/${wave}/log/`,
    /** The analysts of wave K (elected by create-only writes) and its verdict. */
    analysts: (wave: number) => `${root}waves/${wave}/analyst/`,
    verdict: (wave: number) => `${root}waves/${wave}/verdict`,
    /** The rounds of the analysis after wave K as its analyst `holder` ran them (the report's steps); its verdict names the key. */
    rounds: (wave: number, holder: string) => `${root}waves/${wave}/rounds/${holder}`,
    /** A site's terminal record: written once, when its steps ended. */
    site: (site: string) => `${root}sites/${siteKey(site)}`,
    sites: `${root}sites/`,
    /** Each run a worker started for a site, by id (an empty key, created before its journal): runs --store lists them under the sharded run, not as runs of their own. */
    siteRun: (id: string) => `${root}runs/${id}`,
  };
};

/**
 * A site's name as a key segment: s- then letters, digits, . _ - as they are, any other character
 * as =XX for each byte of its UTF-8 (two hex digits each, so one key per name). A key that would
 * pass 160 characters keeps its first 100 and a hash of the whole name after == (which no escaped
 * name holds: an = is followed by hex digits): file systems take a name of at most 255 bytes.
 */
export function siteKey(site: string): string {
  const escaped = site.replace(/[^A-Za-z0-9._-]/gu, (c) =>
    [...Buffer.from(c)].map((b) => `=${b.toString(16).padStart(2, '0')}`).join(''),
  );
  if (escaped.length <= 160) return `s-${escaped}`;
  return `s-${escaped.slice(0, 100)}==${createHash('sha256').update(site).digest('hex').slice(0, 32)}`;
}

/** The fleet's sites in order, hashed: what says two manifests (or a worker) name the same fleet. */
export const inventoryHash = (sites: readonly string[]) => createHash('sha256').update(sites.join('\n')).digest('hex');

/** Static assignment: the shard (0-based) a site belongs to, by a stable hash of its name alone. */
export function shardOf(site: string, shards: number): number {
  return createHash('sha256').update(site).digest().readUInt32BE(0) % shards;
}

/**
 * The worker lease of shard I of a run: held while the worker runs, its heartbeat the claim on its
 * sites. Named by the 0-based index (`--shard 1/N` holds RUN.shard-0), as every run in a store
 * holds it: a worker of another version of the same run must take the same lease. Words say its
 * shard with it (workerLeaseWords).
 */
export const workerLease = (run: string, index: number) => `${run}.shard-${index}`;

/** The sharded run and 0-based index a lease's name says it is a worker's of, if it names one. */
export function workerLeaseOf(name: string): { run: string; index: number } | undefined {
  const found = /^(.+)\.shard-([0-9]+)$/.exec(name);
  return found ? { run: found[1]!, index: Number(found[2]) } : undefined;
}

/** How a message names the worker lease of shard index+1/shards: `lease RUN.shard-0 (shard 1/4)`. */
export const workerLeaseWords = (run: string, index: number, shards: number) =>
  `lease ${workerLease(run, index)} (shard ${index + 1}/${shards})`;

export async function writeManifest(store: RunStore, manifest: Manifest): Promise<boolean> {
  return store.create(shardKeys(manifest.run).manifest, Buffer.from(JSON.stringify(manifest)));
}

/**
 * A record of a sharded run read from `key`, parsed by its schema: STORE_DAMAGED when it is not one
 * of ours (a retry would read it the same); STORE_VERSION when its `v` is above `versions`.
 */
export function parseShardRecord<T>(
  store: RunStore,
  key: string,
  body: Buffer,
  schema: z.ZodType<T>,
  what: string,
  versions: readonly number[] = [],
): T {
  return parseStoreRecord(
    store,
    key,
    body,
    schema,
    what,
    'nothing but enginectl writes under shards/ in a run store: put the record back, or plan the rollout again (enginectl shard)',
    versions,
  );
}

/** A record of a sharded run, parsed by its schema; undefined when the key is absent. */
export async function readShardRecord<T>(
  store: RunStore,
  key: string,
  schema: z.ZodType<T>,
  what: string,
  versions: readonly number[] = [],
): Promise<T | undefined> {
  const body = await store.get(key);
  return body
    ? parseOrReadAgain(store, key, body, (b) =>
        parseShardRecord(store, key, b ?? Buffer.alloc(0), schema, what, versions),
      )
    : undefined;
}

/** A run id that names no sharded run of the store (report --merge --store tells a run of it that is not sharded as such). */
export class NoShardedRun extends StoreError {}

export async function readManifest(store: RunStore, run: string): Promise<Manifest> {
  const manifest = await readShardRecord(store, shardKeys(run).manifest, Manifest, 'a manifest', MANIFEST_VERSIONS);
  if (!manifest) {
    // A store whose directory is not there (a runner without the share) is the store's failure, to retry.
    await store.there?.();
    throw new NoShardedRun('STORE_REFUSED', `${store.url} holds no sharded run ${run}`, {
      hint: 'enginectl shard FILE --store URL --shards N writes it and prints its id',
    });
  }
  return manifest;
}
