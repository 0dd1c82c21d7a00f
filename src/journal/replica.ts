// The journal's copy in the run store (--store): each group of records the journal file syncs
// goes up as the next create-only segment, `runs/RUN/journal/00000001`, and the group's durable
// records (a call's send record) settle only once their segment is in the store, so a runner lost
// with its disk leaves the store knowing every call that left. Group commit shares the round-trip
// as it shares the fsync. A segment that exists already is another writer's: the run stops.
import { randomBytes } from 'node:crypto';
import { shardKeys } from '../shard/manifest.ts';
import { parseOrReadAgain } from '../store/record.ts';
import { keysAfterListing, refuseAnswersEveryKey, sequenceKey, StoreError, type RunStore } from '../store/store.ts';
import { firstBrokenLine } from './frame.ts';
import { CLI_WAYS, type StoredJournal, type WaysOn } from '../ways-on.ts';

const PREFIX = 'runs';
const segment = sequenceKey;

export const journalPrefix = (runId: string) => `${PREFIX}/${runId}/journal/`;

/** A run's id: when it started (UTC, to the second) and 12 random hex digits; sorts by start. */
export function newRunId(now: number): string {
  const at = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  // 48 random bits: a sharded run starts a run per site, thousands in a second (24 bits gave two
  // sites of 10,000 one id, and one journal, about once in fifty runs).
  return `${at}-${randomBytes(6).toString('hex')}`;
}

/** A run's id, else refused naming where it was given (`named`: the CLI's --run, an action's input). */
export function checkRunId(id: string, named = '--run', ways: WaysOn = CLI_WAYS): string {
  // Ids of 24 random bits are earlier runs'.
  if (!/^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}(?:[0-9a-f]{6})?$/.test(id))
    throw new StoreError(
      'STORE_REFUSED',
      `${named} ${id}: not a run id (they look like 20261126T225343Z-a1b2c3d4e5f6)`,
      { hint: ways.findRun },
    );
  return id;
}

/** A segment of a run's journal as the store holds it: its key, and how many lines (records) it holds. */
export interface Segment {
  key: string;
  lines: number;
}

/** A run's journal as read from the store: its text, the number of its next segment, and its segments in order. */
export interface StoredText {
  text: string;
  next: number;
  segments: Segment[];
}

const linesOf = (bytes: Buffer) => {
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  return n;
};

/** Where run `runId`'s journal is in `store`, its `segments` as read (and put since): the segment a line of it is in. */
export function storedJournalAt(store: RunStore, runId: string, segments: () => readonly Segment[]): StoredJournal {
  return {
    url: store.url,
    runId,
    prefix: journalPrefix(runId),
    keyOf(line) {
      let last = 0;
      for (const s of segments()) if (line <= (last += s.lines)) return s.key;
      return undefined;
    },
  };
}

export class JournalReplica {
  private segments: Segment[];

  /** The journal of run `runId`, going on after `segments` (read from the store: none for a new run). */
  constructor(
    readonly store: RunStore,
    readonly runId: string,
    segments: readonly Segment[] = [],
  ) {
    this.segments = [...segments];
  }

  /** Where the journal is in the store (with the segments this runner put), as a refusal of one of its records names it. */
  get at(): StoredJournal {
    return storedJournalAt(this.store, this.runId, () => this.segments);
  }

  /** Puts the bytes the journal synced as the next segment; throws when it cannot (the run stops before its next call). */
  async push(bytes: Buffer): Promise<void> {
    if (!(await this.put(bytes)))
      throw new StoreError(
        'STORE_FAILED',
        `${this.store.url}: the journal segment ${this.key()} exists: another runner writes run ${this.runId}`,
        {
          hint: 'one runner at a time goes on with a run (a lease keeps it so); resume from the store once the other has stopped',
        },
      );
  }

  /**
   * Takes the journal's next segment, empty, so that no other runner can put one there: false when
   * one is there already (another runner put it since this one read the journal).
   */
  fence(): Promise<boolean> {
    return this.put(Buffer.alloc(0));
  }

  /** The number of the segment the next push creates. */
  get position(): number {
    return this.segments.length + 1;
  }

  private key(): string {
    return `${journalPrefix(this.runId)}${segment(this.position)}`;
  }

  /** The next segment created with `bytes`, create-only; false when it exists. */
  private async put(bytes: Buffer): Promise<boolean> {
    const key = this.key();
    if (!(await this.store.create(key, bytes))) return false;
    this.segments.push({ key, lines: linesOf(bytes) });
    return true;
  }

  /** Goes on after `segments`: the journal was read again, with the segments put since. */
  readAgain(segments: readonly Segment[]): void {
    this.segments = [...segments];
  }
}

/** A run's journal as the store holds it: its segments in order, and the number of the next. */
export async function readStoredJournal(store: RunStore, runId: string, ways: WaysOn = CLI_WAYS): Promise<StoredText> {
  const read = await readSegments(store, runId, ways);
  // No segment, or fences alone (a runner took the run over and stopped before its first record): no run begun.
  if (read.text === '') {
    // A sharded run's id (enginectl shard's): its sites are runs of their own, it has no journal.
    if (await store.get(shardKeys(runId).manifest).catch(() => undefined))
      throw new StoreError(
        'STORE_REFUSED',
        `${store.url}: ${runId} is a sharded run (enginectl shard planned it), not a run of one job: it has no journal of its own, and no operator's decision parks or continues it (decide --abort halts it)`,
        {
          hint: `it goes on when its workers run again (run FILE --store URL --run ${runId} --shard I/N, the same commands); enginectl report --merge --store URL --run ${runId} says where it stands, with each site's run (enginectl verify --store URL --run SITE_RUN reads a site's calls back)`,
        },
      );
    throw new StoreError('STORE_REFUSED', `${store.url} holds no run ${runId}`, { hint: ways.findRun });
  }
  return read;
}

/**
 * A run's segments as the store holds them, none and empty ones (fences) too: their text, and the
 * number of the next. The listed segments, then those after them read by name until one is
 * absent: a listing may lag the segments just put (an NFS client's cached directory, an eventually
 * consistent S3), a read by name does not.
 */
export async function readSegments(store: RunStore, runId: string, ways: WaysOn = CLI_WAYS): Promise<StoredText> {
  // A segment's key is its number: any other key there (a copy an operator kept, a file manager's
  // own) is no part of the journal, and is passed over as the lease's reader passes it over.
  const prefix = journalPrefix(runId);
  const keys = (await store.list(prefix)).filter((k) => /^[0-9]{8}$/.test(k.slice(prefix.length)));
  const parts: Buffer[] = [];
  const segments: Segment[] = [];
  const add = async (key: string, body: Buffer) => {
    parts.push(await wholeSegment(store, key, body, ways));
    segments.push({ key, lines: linesOf(parts.at(-1)!) });
  };
  for (const [i, key] of keys.entries()) {
    if (key !== `${journalPrefix(runId)}${segment(i + 1)}`)
      throw new StoreError(
        'STORE_FAILED',
        `${store.url}: run ${runId}'s journal lacks segment ${segment(i + 1)} (found ${key})`,
        { hint: 'the store lost a segment: the run cannot be read whole' },
      );
    const body = await store.get(key);
    if (!body) throw new StoreError('STORE_FAILED', `${store.url}: ${key} was listed and is gone`);
    await add(key, body);
  }
  const after = await keysAfterListing(store, journalPrefix(runId), keys.length + 1);
  for (const [i, body] of after.entries()) await add(`${journalPrefix(runId)}${segment(keys.length + 1 + i)}`, body);
  return { text: Buffer.concat(parts).toString('utf8'), next: parts.length + 1, segments };
}

/**
 * A segment as read, checked whole: none (a fence) or whole records, each line with its CRC. One
 * that is not is read once more (parseOrReadAgain: a proxy between may have cut or changed it),
 * then STORE_DAMAGED: read as the journal's text, its cut last line would be a torn record (what a
 * run killed while writing leaves), the records after it read as never written.
 */
function wholeSegment(store: RunStore, key: string, body: Buffer, ways: WaysOn): Promise<Buffer> {
  return parseOrReadAgain(store, key, body, (b) => {
    const broken = b === undefined ? 1 : firstBrokenLine(b.toString('utf8'));
    if (broken === undefined) return b!;
    throw new StoreError(
      'STORE_DAMAGED',
      `${store.url}: ${key} is not a segment of a journal of enginectl (its line ${broken} is cut or altered)`,
      {
        hint: `nothing but enginectl writes under runs/ in a run store: the run cannot be read whole from it; put the segment back from a copy of the store (S3 versioning, a backup), or from ${ways.runnerJournal}, which holds the same records`,
      },
    );
  });
}

/** The runs a store holds, newest first. */
export async function storedRuns(store: RunStore): Promise<string[]> {
  const keys = await store.list(`${PREFIX}/`);
  // None listed: a store of keys, or an endpoint that answers every path (its listing, HTML, empty).
  if (keys.length === 0)
    await refuseAnswersEveryKey(store, `${journalPrefix('00000000T000000Z-0')}${sequenceKey(99_999_999)}`);
  return [...new Set(keys.map((k) => k.split('/')[1]!).filter((id) => /^[0-9]{8}T/.test(id)))].sort().reverse();
}
