// The log of one wave of a sharded run: each start of a site, each takeover of a dead worker's
// site and each end of a site's run (a success in the entry of the same lane's next start, when
// there is one), one create-only key of a sequence (`waves/K/log/00000001`, ...). Whoever creates
// the next key first wins, so the log is a compare-and-swap register: a start is appended only on
// the state it was judged on. That makes the wave's failure budget one counter: no site starts
// anywhere once the failures passed it, in queue mode two workers never claim one site, and the
// barrier reads from it which sites ended. Every worker appends to it, so each entry fewer is a
// race fewer: a lost race costs a read and a written, synced temporary file.
import { z } from 'zod';
import { sequenceKey, type RunStore } from '../store/store.ts';
import { parseShardRecord, shardKeys } from './manifest.ts';

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
]);
export type WaveEntry = z.infer<typeof Entry>;

export interface WaveState {
  /** The newest key's number (0: none). */
  seq: number;
  entries: WaveEntry[];
  /** Each site's current owner: its latest start or takeover. */
  owners: Map<string, Extract<WaveEntry, { kind: 'start' | 'takeover' }>>;
  failed: Set<string>;
  /** The sites whose run ended (the barrier: every site of the wave ended, or never to start). */
  ended: Set<string>;
}

export class WaveLog {
  private readonly prefix: string;
  private readonly state: WaveState = { seq: 0, entries: [], owners: new Map(), failed: new Set(), ended: new Set() };

  constructor(
    private readonly store: RunStore,
    run: string,
    readonly wave: number,
  ) {
    this.prefix = shardKeys(run).waveLog(wave);
  }

  /** The read in flight: the lanes of one worker share it, so no entry is applied twice or out of turn. */
  private reading: Promise<WaveState> | undefined;

  /**
   * The log as the store holds it now: the keys after the last one read, fetched in order until
   * one is absent (a sequence has no gap: each key is created only after the one before it), so a
   * read costs what was appended since, never the whole log.
   */
  read(): Promise<WaveState> {
    this.reading ??= this.readOn().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readOn(): Promise<WaveState> {
    for (;;) {
      const n = this.state.seq + 1;
      const key = `${this.prefix}${sequenceKey(n)}`;
      const body = await this.store.get(key);
      if (!body) return this.state;
      this.apply(this.entry(key, body), n);
    }
  }

  private entry(key: string, body: Buffer): WaveEntry {
    return parseShardRecord(this.store, key, body, Entry, "an entry of a wave's log");
  }

  /** Applies the n-th entry, once: an entry already applied (read back by another lane) is not applied again. */
  private apply(entry: WaveEntry, n: number): void {
    if (n !== this.state.seq + 1) return;
    this.state.seq = n;
    this.state.entries.push(entry);
    if (entry.kind === 'start' && entry.ended) this.state.ended.add(entry.ended.site);
    if (entry.kind !== 'ended') this.state.owners.set(entry.site, entry);
    else {
      this.state.ended.add(entry.site);
      if (entry.outcome === 'failure') this.state.failed.add(entry.site);
    }
  }

  /**
   * Appends `entry` when `still(state)` holds on the newest state: read, judge, create the next
   * key; another worker's key in between means judging again. False when `still` said no.
   */
  async append(entry: WaveEntry, still: (state: WaveState) => boolean): Promise<boolean> {
    for (;;) {
      const state = await this.read();
      if (!still(state)) return false;
      const n = state.seq + 1;
      if (await this.store.create(`${this.prefix}${sequenceKey(n)}`, Buffer.from(JSON.stringify(entry)))) {
        this.apply(entry, n);
        return true;
      }
    }
  }
}
