// Between two waves of a sharded run: once every site of wave K has its terminal record, one worker,
// elected by a create-only write (`waves/K/analyst/00000001`, the next key when the elected one's
// lease lapsed, or once it gave its place up with a record of its own), counts its failures against the budget, runs the analysis (a bake, the gates) and
// writes the wave's verdict once; every other worker waits for that verdict. Wave K+1 starts
// nowhere before it.
import { parseOrReadAgain, parseStoreRecord } from '../store/record.ts';
import { z } from 'zod';
import { keysAfterListing, newestListed, sequenceKey, StoreError, type RunStore } from '../store/store.ts';
import { readShardRecord, shardKeys } from './manifest.ts';
import { AbortSchema } from './abort.ts';

/** The analysis after a wave, as the report's rollout tells it (its rounds, what it found). */
const Analysis = z.object({ passed: z.boolean(), rounds: z.int(), failedRounds: z.int(), text: z.string() });
export type Analysis = z.infer<typeof Analysis>;

export const Verdict = z.object({
  wave: z.int().positive(),
  /** The wave passed: the next one may start. */
  passed: z.boolean(),
  /** Why the rollout halted here (budget, analysis, abort), when it did, in words: an earlier enginectl's readers print them. */
  halted: z.string().optional(),
  /** The operator's abort that halted it: who, when, why (absent in an earlier version's verdict: abort.ts earlierAbortVerdict). */
  aborted: AbortSchema.optional(),
  failed: z.array(z.string()),
  /** The analysis, in words. */
  text: z.string(),
  /** The analysis, when one was due after the wave: its rounds and what it found (the merged report's). */
  analysis: Analysis.optional(),
  /** The key of the analysis rounds' instances, as its analyst kept them (the merged report lists them). */
  steps: z.string().optional(),
  worker: z.int(),
  at: z.number(),
});
export type Verdict = z.infer<typeof Verdict>;

const Analyst = z.object({
  worker: z.int(),
  holder: z.string(),
  at: z.number(),
  /** Its place given up before a verdict (interrupted, or parked on a bake): the next worker stands at once. */
  gaveUp: z.literal(true).optional(),
  /** The bake it parked on: what the rollout waits for ("the 1h bake after wave 1"), and until when (the run's clock). */
  bake: z.object({ reason: z.string(), until: z.number() }).optional(),
  /**
   * The first analyst's: a server of the wave's clock against its own as it stood (app/shard-bake-clock.ts),
   * what a later analyst on another machine judges the bake on besides its own clock. Absent when no
   * server answered with a Date, or written by an earlier enginectl.
   */
  clock: z.object({ server: z.string(), low: z.number(), high: z.number(), at: z.number() }).optional(),
});
export type Analyst = z.infer<typeof Analyst>;

export const readVerdict = (store: RunStore, run: string, wave: number): Promise<Verdict | undefined> =>
  readShardRecord(store, shardKeys(run).verdict(wave), Verdict, "a wave's verdict");

/** The verdict of each wave of the run, in order; undefined for a wave not decided yet. */
export const readVerdicts = (store: RunStore, manifest: { run: string; waves: readonly unknown[] }) =>
  Promise.all(manifest.waves.map((_, w) => readVerdict(store, manifest.run, w + 1)));

/** Why a wave past its budget halts the rollout, in words. */
export const overBudget = (over: string, failed: readonly string[], budget: number) =>
  `${failed.length} ${over}(s) failed (${failed.join(', ')}), over the budget of ${budget}`;

export const writeVerdict = (store: RunStore, run: string, v: Verdict) =>
  store.create(shardKeys(run).verdict(v.wave), Buffer.from(JSON.stringify(v)));

/**
 * The analysts elected for a wave so far, in order (the first's `at` is when its bake began): the
 * listed keys, then those after the newest listed read by name (keysAfterListing): a listing that
 * lags would hide the newest record, an analyst's give-up read as it still standing, or the
 * elected one as no one.
 */
export async function analysts(store: RunStore, run: string, wave: number): Promise<Analyst[]> {
  const prefix = shardKeys(run).analysts(wave);
  const parse = (key: string, body: Buffer | undefined) =>
    parseStoreRecord(
      store,
      key,
      body,
      Analyst,
      "an analyst's record",
      "put the record back as it was, or plan the rollout again (enginectl shard): the wave's election cannot be read",
    );
  // A damaged analyst's record is the store's damage (STORE_DAMAGED): skipped, it would shift who is elected.
  // Each key up to the newest listed, by its number: the list's place is the key's (standFor).
  const listed = await newestListed(store, prefix);
  const out: Analyst[] = [];
  // A record found damaged is read once more (parseOrReadAgain): it may have been cut in transit.
  const read = (key: string, body: Buffer | undefined) => parseOrReadAgain(store, key, body, (b) => parse(key, b));
  for (let n = 1; n <= listed; n++) {
    const key = `${prefix}${sequenceKey(n)}`;
    // Not there, read by name twice (a proxy between may answer one read wrong): removed by something else.
    const body = (await store.get(key)) ?? (await store.get(key));
    if (body === undefined) throw lostKey(store.url, key, listed);
    out.push(await read(key, body));
  }
  const after = await keysAfterListing(store, prefix, listed + 1);
  for (const [i, body] of after.entries()) out.push(await read(`${prefix}${sequenceKey(listed + 1 + i)}`, body));
  return out;
}

/**
 * A key of the sequence below the newest listed is not there: keys are create-only, created one
 * after another, and enginectl removes none, so something else removed it. Said so, not as a record
 * enginectl did not write.
 */
const lostKey = (url: string, key: string, newest: number) =>
  new StoreError(
    'STORE_DAMAGED',
    `${url}: ${key} is not there, below the newest listed (${sequenceKey(newest)}): enginectl removes no key, so something else removed it`,
    {
      hint: "the wave's election cannot be read without it: put it back from a copy (S3 versioning, a backup) and check no expiry rule or cleanup reaches shards/, or plan the rollout again (enginectl shard)",
    },
  );

/** Stands for election as the next analyst of the wave: true when this worker's key was created. */
export const standFor = (store: RunStore, run: string, wave: number, n: number, me: Analyst) =>
  store.create(`${shardKeys(run).analysts(wave)}${sequenceKey(n)}`, Buffer.from(JSON.stringify(me)));
