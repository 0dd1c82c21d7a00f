// The log of one wave of a sharded run: each start of a site, each takeover of a dead worker's
// site and each end of a site's run (a success in the entry of the same lane's next start, when
// there is one), one create-only key of a sequence (`waves/K/log/00000001`, ...). Whoever creates
// the next key first wins, so the log is a compare-and-swap register: a start is appended only on
// the state it was judged on. That makes the wave's failure budget one counter: no site starts
// anywhere once the failures passed it, in queue mode two workers never claim one site, and the
// barrier reads from it which sites ended; an operator's abort in it stops every claim after it.
// Every worker appends to it, so each entry fewer is a
// race fewer: a lost race costs a read of the log and a refused try of the entry at the next key
// (in a directory a link of the entry's file, written and synced once; in S3 a PUT).
import { z } from 'zod';
import { parseOrReadAgain, recordJson } from '../store/record.ts';
import { sequenceKey, StoreError, type PreparedBody, type RunStore } from '../store/store.ts';
import { CLI_WAYS } from '../ways-on.ts';
import { parseShardRecord, shardKeys } from './manifest.ts';
import { AbortSchema } from './abort.ts';

const Entry = z.discriminatedUnion('kind', [
  /**
   * A worker claims a site and starts its run (its journal: the run `siteRun` of the store). `ended`:
   * the site the same lane ran before succeeded (its end and this start one entry, not two; a
   * failure is an entry of its own, before the lane starts anything else).
   */
  z.object({
    kind: z.literal('start'),
    site: z.string(),
    worker: z.int(),
    holder: z.string(),
    siteRun: z.string(),
    at: z.number(),
    ended: z.object({ site: z.string(), outcome: z.literal('success'), at: z.number() }).optional(),
  }),
  /** A worker took a dead worker's site over (its lease expired or was given up): it resumes the site's run. */
  z.object({
    kind: z.literal('takeover'),
    site: z.string(),
    worker: z.int(),
    holder: z.string(),
    siteRun: z.string(),
    from: z.int(),
    at: z.number(),
  }),
  /** A site's run ended: a failure (or a call left in doubt) is one against the wave's budget. */
  z.object({
    kind: z.literal('ended'),
    site: z.string(),
    worker: z.int(),
    outcome: z.enum(['success', 'failure']),
    at: z.number(),
  }),
  /** The operator aborted the rollout (decide --abort): no site of the wave starts or is taken over after it. */
  z.object({ kind: z.literal('abort'), ...AbortSchema.shape }),
]);
export type WaveEntry = z.infer<typeof Entry>;
const KINDS: ReadonlySet<string> = new Set(Entry.options.map((o) => o.shape.kind.value));

/** An entry of a kind a newer enginectl writes: never damage to put back or remove (docs/reliability.md). */
const newerEntry = (store: RunStore, key: string, kind: string) =>
  new StoreError(
    'STORE_VERSION',
    `${store.url}: ${key} is an entry of a wave's log of kind ${JSON.stringify(kind)}, which this enginectl does not know: a newer enginectl wrote it`,
    {
      hint: `run every job of this run store (${CLI_WAYS.storeJobs}) with that enginectl or a later one; leave the entry as it is; nothing was done from it`,
    },
  );

export interface WaveState {
  /** The newest key's number (0: none). */
  seq: number;
  entries: WaveEntry[];
  /** Each site's current owner: its latest start or takeover. */
  owners: Map<string, Extract<WaveEntry, { kind: 'start' | 'takeover' }>>;
  failed: Set<string>;
  /** The sites whose run ended (the barrier: every site of the wave ended, or never to start). */
  ended: Set<string>;
  /** The sites started (or taken over) and not ended, in the order they started: those a takeover looks at. */
  unended: Set<string>;
  /** The operator's abort, once the log holds it: nothing starts after it. */
  aborted?: Extract<WaveEntry, { kind: 'abort' }> | undefined;
}

/** The most keys a read asks for at once (a read of a quiet log asks for this many absent keys at most). */
const MAX_AHEAD = 8;

export class WaveLog {
  private readonly prefix: string;
  private readonly state: WaveState = {
    seq: 0,
    entries: [],
    owners: new Map(),
    failed: new Set(),
    ended: new Set(),
    unended: new Set(),
  };

  constructor(
    private readonly store: RunStore,
    run: string,
    readonly wave: number,
  ) {
    this.prefix = shardKeys(run).waveLog(wave);
  }

  /** The read in flight: the lanes of one worker share it, so no entry is applied twice or out of turn. */
  private reading: Promise<WaveState> | undefined;

  /** How many keys a read asks for at once: as many as the last read that found any found (the other workers' pace). */
  private ahead = 1;

  /**
   * The log as the store holds it now: the keys after the last one read, applied in order up to
   * the first absent one (a sequence has no gap: each key is created only after the one before
   * it), so a read costs what was appended since, never the whole log. The keys are asked for
   * several at once (`ahead`, doubled while every one is there): a worker back from a site meets
   * an entry or two from each other worker, and waits for one round trip, not one per entry.
   */
  read(): Promise<WaveState> {
    this.reading ??= this.readOn().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readOn(): Promise<WaveState> {
    let found = 0;
    for (let batch = this.ahead; ; batch = Math.min(batch * 2, MAX_AHEAD)) {
      const first = this.state.seq + 1;
      const keys = Array.from({ length: batch }, (_, i) => `${this.prefix}${sequenceKey(first + i)}`);
      const bodies = await Promise.all(keys.map((key) => this.store.get(key)));
      const absent = bodies.findIndex((body) => !body);
      // Only up to the first absent key: one after it may have been created since.
      for (const [i, body] of bodies.slice(0, absent === -1 ? batch : absent).entries())
        this.apply(await this.entry(keys[i]!, body!), first + i);
      found += absent === -1 ? batch : absent;
      if (absent !== -1) break;
    }
    if (found > 0) this.ahead = Math.min(found, MAX_AHEAD);
    return this.state;
  }

  /**
   * An entry found damaged is read once more (parseOrReadAgain): it may have been cut in transit.
   * One of a kind this enginectl does not know is a newer enginectl's: no damage (STORE_VERSION).
   */
  private entry(key: string, body: Buffer): Promise<WaveEntry> {
    return parseOrReadAgain(this.store, key, body, (b) => {
      const kind = (recordJson(b) as { kind?: unknown } | null | undefined)?.kind;
      if (typeof kind === 'string' && !KINDS.has(kind)) throw newerEntry(this.store, key, kind);
      return parseShardRecord(this.store, key, b ?? Buffer.alloc(0), Entry, "an entry of a wave's log");
    });
  }

  /** Applies the n-th entry, once: an entry already applied (read back by another lane) is not applied again. */
  private apply(entry: WaveEntry, n: number): void {
    if (n !== this.state.seq + 1) return;
    this.state.seq = n;
    this.state.entries.push(entry);
    const end = (site: string) => (this.state.ended.add(site), this.state.unended.delete(site));
    if (entry.kind === 'abort') {
      this.state.aborted ??= entry;
      return;
    }
    if (entry.kind === 'start' && entry.ended) end(entry.ended.site);
    if (entry.kind !== 'ended') {
      this.state.owners.set(entry.site, entry);
      if (!this.state.ended.has(entry.site)) this.state.unended.add(entry.site);
    } else {
      end(entry.site);
      if (entry.outcome === 'failure') this.state.failed.add(entry.site);
    }
  }

  /** The append in flight: one at a time, so that the lanes of one worker never race each other for the next key. */
  private appending: Promise<unknown> = Promise.resolve();

  /**
   * Appends `entry` when `still(state)` holds on the newest state: read, judge, create the next
   * key; another worker's key in between means judging again. False when `still` said no. The
   * worker's appends are made one after another (its lanes would race each other for the same key).
   * `read`: the caller has just read the log; the first attempt judges on that (its key is the
   * compare: were anything appended since, the key exists and the log is read again).
   */
  append(entry: WaveEntry, still: (state: WaveState) => boolean, read = false): Promise<boolean> {
    const turn = this.appending.then(() => this.appendNow(entry, still, read));
    this.appending = turn.catch(() => undefined);
    return turn;
  }

  /**
   * The entry is written once, when it first holds (in a directory: a temporary file, synced),
   * then tried at each next key: a race lost costs a read of the log and a link, not the entry
   * written and synced again; an entry that never holds (a site another lane just claimed) costs
   * nothing. Between a judgement and the try of its key nothing is awaited.
   */
  private async appendNow(entry: WaveEntry, still: (state: WaveState) => boolean, read: boolean): Promise<boolean> {
    let prepared: PreparedBody | undefined;
    try {
      for (let first = read; ; first = false) {
        let state = first ? this.state : await this.read();
        if (!still(state)) return false;
        if (!prepared) {
          const key = `${this.prefix}${sequenceKey(state.seq + 1)}`;
          prepared = await this.store.prepare(key, Buffer.from(JSON.stringify(entry)));
          // Judged again on the log as it stands after the write: another lane may have read it since.
          state = this.state;
          if (!still(state)) return false;
        }
        const n = state.seq + 1;
        if (await prepared.create(`${this.prefix}${sequenceKey(n)}`)) {
          this.apply(entry, n);
          return true;
        }
      }
    } finally {
      await prepared?.release();
    }
  }
}
