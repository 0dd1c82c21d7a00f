// Longer than 250 lines: records, holding, queue and acquisition are one protocol over create-only writes, read whole.
// The fleet lease: one run at a time sends to a fleet, across machines, CI systems and pipelines,
// kept in the run store with create-only writes alone. A lease is a sequence of keys
// (`leases/NAME/00000001`, ...), each an event (acquire, renew, takeover, release) with its
// holder and expiry; the newest is the state, and whoever creates the next key first wins. The
// holder's last key is its fencing token: the lease is still its own while no key follows it and
// its expiry has not passed, which it checks before every write it sends (one GET). Waiters queue
// FIFO by ticket (`leases/NAME/queue/N`), each renewed while its waiter waits (`queue/N.beat.AT`,
// a heartbeat as the lease's): a ticket not renewed for the lease's ttl holds no place (its waiter
// is gone). A holder's expiry is written on its clock, and a waiter confirms it on its own: it
// takes the lease over once the record has stayed unchanged for the holder's ttl since it first
// read it (by then the holder's own clock has passed its expiry, whatever the skew between the
// two), or once the expiry passed a whole ttl ago on its clock (a skew under the ttl).
import { z } from 'zod';
import { EnginectlError, ExitCode, Interrupted, interruptedRead, UsageError } from '../errors.ts';
import type { ErrorCode } from '../error-codes.ts';
import { keysAfterListing, newestListed, sequenceKey, type RunStore } from './store.ts';
import { Instant, parseOrReadAgain, parseStoreRecord, recordJson } from './record.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';
import { heldTtl, lapseOf, pastExpiry, type FirstSeen, type Lapse } from './lapse.ts';

const Holder = z.object({
  runId: z.string(),
  actor: z.string(),
  host: z.string(),
  ciRunUrl: z.string().optional(),
  pipeline: z.string().optional(),
  sites: z.array(z.string()).optional(),
});
export type LeaseHolder = z.infer<typeof Holder>;

/** The versions of a lease record this enginectl reads: one of a later version is a newer enginectl's (STORE_VERSION). */
const LEASE_RECORD_VERSIONS = [1] as const;

const LeaseRecord = z.object({
  v: z.literal(LEASE_RECORD_VERSIONS),
  kind: z.enum(['acquire', 'renew', 'takeover', 'release']),
  holder: Holder,
  at: Instant,
  expiresAt: Instant,
  /** The highest queue ticket served so far (carried by every record): tickets at or below it are done. */
  served: z.int().nonnegative().default(0),
  /** A takeover's or a release's: why, and what verify read of the previous holder's calls. */
  reason: z.string().optional(),
  evidence: z.array(z.string()).optional(),
  /** Who released it, when that is not the holder (lease release). */
  by: z.string().optional(),
  /** Kept by a parked run (park: { keep-lease: true }): that run's continue takes it back; any other waits for its expiry. */
  parked: z.boolean().optional(),
});
export type LeaseRecord = z.infer<typeof LeaseRecord>;

/**
 * A waiter's place in the line. One with a `ttl` (the lease's) holds it while renewed within that
 * time and not withdrawn (its waiter withdraws it when its wait ends, or it takes the lease): its
 * wait may run past its deadline while it confirms a holder's lapse. `until` is for the readers of an
 * earlier enginectl, which drop a ticket once it passed: this one writes its deadline and one ttl
 * more (the holder's ttl when longer: the longest it confirms a lapse; it waits no longer than its
 * until). A ticket without a `ttl` (an earlier
 * enginectl's, never renewed) holds its place until then.
 */
const Ticket = z.object({
  runId: z.string(),
  at: Instant,
  until: Instant,
  ttl: z.number().nonnegative().max(8.64e15).optional(),
});

/** A ticket's heartbeat: `queue/N.beat.AT`, its time in its key (read from the listing, no GET). */
const BEAT = /\/([0-9]{8})\.beat\.([0-9]+)$/;

/** The lease cannot be had or was lost: a run that lost it sends nothing more (exit 1); one that could not take it sent nothing (exit 2). */
/**
 * How a holder lost its lease (LEASE_LOST), for a surface that words it in its own terms (a sharded
 * run's worker, whose way on is its index run again): an operator released it, it lapsed unrenewed,
 * another holder took it over or went on with it, or the record after its last could not be read.
 */
export type LeaseLoss =
  | { how: 'released'; by: string; reason: string | undefined; at: number }
  | { how: 'lapsed'; at: number }
  | { how: 'taken'; by: string }
  | { how: 'went-on'; by: string }
  | { how: 'unread' };

export class LeaseError extends EnginectlError {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  /** LEASE_LOST: how. */
  readonly loss: LeaseLoss | undefined;

  constructor(
    code: 'LEASE_HELD' | 'LEASE_LOST' | 'LEASE_TAKEOVER_REFUSED',
    message: string,
    options: { hint?: string; cause?: unknown; loss?: LeaseLoss } = {},
  ) {
    super(message, options);
    this.code = code;
    this.exitCode = code === 'LEASE_LOST' ? ExitCode.failed : ExitCode.invalidInput;
    this.loss = options.loss;
  }
}

const seq = sequenceKey;
export const leasePrefix = (name: string) => `leases/${name}/`;

/** What a lease's name may be, as a refusal of one says. */
const LEASE_NAMES =
  "a lease's name is letters, digits, dots, dashes, underscores and =, 1 to 100 of them, the first a letter or digit";

/**
 * A lease's name given at run time (--lease, lease status NAME, the action's input lease), else
 * refused as the surface's invalid input (`ways`: the CLI's flags by default), never LEASE_HELD,
 * on which a script waits.
 */
export function checkLeaseName(name: string, ways: WaysOn = CLI_WAYS): string {
  if (name.length > 100)
    throw new UsageError(
      ways.badValue,
      `lease ${name} is ${name.length} characters long, over the 100 a lease's name may have (${LEASE_NAMES})`,
      {
        hint: "shorten it (with lease: { over: KEY }, the lease's name and each value together: NAME.VALUE)",
      },
    );
  if (!/^[A-Za-z0-9][A-Za-z0-9._=-]{0,99}$/.test(name))
    throw new UsageError(ways.badValue, `lease ${JSON.stringify(name)}: ${LEASE_NAMES}`, { hint: ways.leaseExample });
  return name;
}

/** A lease's record at `key`: STORE_DAMAGED when it is not one of enginectl's. */
export async function readLeaseRecord(store: RunStore, key: string, ways?: WaysOn): Promise<LeaseRecord> {
  return parseOrReadAgain(store, key, await store.get(key), (body) => parseLeaseRecord(store, key, body, ways));
}

const parseLeaseRecord = (store: RunStore, key: string, body: Buffer | undefined, ways?: WaysOn): LeaseRecord =>
  parseStoreRecord(
    store,
    key,
    body,
    LeaseRecord,
    'a lease record',
    'nothing but enginectl writes under leases/ in a run store: put the record back, or remove the lease (nothing was sent)',
    LEASE_RECORD_VERSIONS,
    ways,
  );

/**
 * The lease's state: its newest record and where it stands in the sequence; undefined when it was
 * never taken. The newest listed key, then the keys after it read by name until one is absent: a
 * listing may lag the keys just created (an NFS client's cached directory, an eventually consistent
 * S3), a read by name does not, and a lease read one record behind is a live holder read as gone.
 */
export async function leaseState(
  store: RunStore,
  name: string,
  /** How the surface names the ways on, in a refusal of the record (the CLI's by default). */
  ways?: WaysOn,
): Promise<{ seq: number; record: LeaseRecord } | undefined> {
  return leaseAfterListing(store, name, await newestListed(store, leasePrefix(name)), ways);
}

/** As leaseState, from the number of the newest key of the lease a listing showed (0: none). */
export async function leaseAfterListing(
  store: RunStore,
  name: string,
  listed: number,
  ways?: WaysOn,
): Promise<{ seq: number; record: LeaseRecord } | undefined> {
  const after = await keysAfterListing(store, leasePrefix(name), listed + 1);
  const n = listed + after.length;
  if (n === 0) return undefined;
  const key = `${leasePrefix(name)}${seq(n)}`;
  const body = after.at(-1) ?? (await store.get(key));
  return { seq: n, record: await parseOrReadAgain(store, key, body, (b) => parseLeaseRecord(store, key, b, ways)) };
}

/** How many lease records are read at once. */
const AT_ONCE = 16;

/**
 * The newest record of each lease the store holds: each name's newest listed key, then (when
 * `pastListing` says so) its keys after that one read by name, and those of the leases `known`
 * none of whose keys is listed: a listing may lag the keys just created (an NFS client's cached
 * directory, an eventually consistent S3), and a lease read a record behind (its earlier holder's
 * release), or not at all, is a live runner read as gone. A record that cannot be read is given to
 * `unreadable`, which throws, or returns to leave that lease out.
 */
export async function newestOfEachLease(
  store: RunStore,
  known: readonly string[],
  pastListing: (name: string) => boolean,
  unreadable: (name: string, error: unknown) => Promise<void>,
  /** How the surface names the ways on, in a refusal of a record (the CLI's by default). */
  ways?: WaysOn,
): Promise<Map<string, LeaseRecord>> {
  const newest = new Map<string, number>();
  for (const key of await store.list('leases/')) {
    const found = /^leases\/([^/]+)\/([0-9]{8})$/.exec(key);
    if (found) newest.set(found[1]!, Math.max(newest.get(found[1]!) ?? 0, Number(found[2])));
  }
  for (const name of known) if (!newest.has(name)) newest.set(name, 0);
  const read = async (name: string): Promise<[string, LeaseRecord] | undefined> => {
    const listed = newest.get(name)!;
    try {
      if (!pastListing(name)) return [name, await readLeaseRecord(store, `${leasePrefix(name)}${seq(listed)}`, ways)];
      const state = await leaseAfterListing(store, name, listed, ways);
      return state && [name, state.record];
    } catch (error) {
      await unreadable(name, error);
      return undefined;
    }
  };
  const out = new Map<string, LeaseRecord>();
  const names = [...newest.keys()];
  for (let i = 0; i < names.length; i += AT_ONCE)
    for (const found of await Promise.all(names.slice(i, i + AT_ONCE).map(read))) if (found) out.set(...found);
  return out;
}

/**
 * The queue's live tickets after the last one served, in order: not withdrawn, and renewed within
 * the lease's ttl, whatever their `until` (a waiter confirming a lapse waits past it); a ticket
 * without a ttl, of an earlier enginectl: until its wait is over. `renewed`: its last renewal, on
 * its waiter's clock; `until`: the end of a ticket's wait without a ttl.
 */
export async function queuedRuns(store: RunStore, name: string, served: number, now: number): Promise<QueuedRun[]> {
  const keys = await store.list(`${leasePrefix(name)}queue/`);
  const withdrawn = new Set(keys.filter((k) => k.endsWith('.withdrawn')).map((k) => k.slice(0, -'.withdrawn'.length)));
  const beats = new Map<number, number>();
  for (const key of keys) {
    const beat = BEAT.exec(key);
    if (beat) beats.set(Number(beat[1]), Math.max(beats.get(Number(beat[1])) ?? 0, Number(beat[2])));
  }
  const out: QueuedRun[] = [];
  for (const key of keys) {
    if (!/\/[0-9]{8}$/.test(key) || withdrawn.has(key)) continue;
    const n = Number(key.slice(-8));
    if (n <= served) continue;
    // A ticket that is not one (cut, altered) holds no place in the line.
    const t = Ticket.safeParse(recordJson(await store.get(key)));
    if (!t.success) continue;
    const renewed = Math.max(t.data.at, beats.get(n) ?? 0);
    const live = t.data.ttl === undefined ? t.data.until > now : now <= renewed + t.data.ttl;
    if (live)
      out.push({ n, runId: t.data.runId, renewed, ...(t.data.ttl === undefined ? { until: t.data.until } : {}) });
  }
  return out;
}

export interface QueuedRun {
  n: number;
  runId: string;
  renewed: number;
  until?: number;
}

/**
 * An operator's release of a lease whose holder is gone: the next key of the sequence, a release
 * by `by` with its reason. False when the lease moved meanwhile (renewed, or taken): nothing released.
 */
export function releaseAs(
  store: RunStore,
  name: string,
  state: { seq: number; record: LeaseRecord },
  by: string,
  reason: string,
  now: number,
): Promise<boolean> {
  const record: LeaseRecord = {
    ...state.record,
    kind: 'release',
    at: now,
    expiresAt: now,
    reason,
    by,
    evidence: undefined,
  };
  return store.create(`${leasePrefix(name)}${seq(state.seq + 1)}`, Buffer.from(JSON.stringify(record)));
}

export interface LeaseSummary {
  name: string;
  holder: string;
  waitedMs: number;
  takeover: { evidence: string[]; reason: string | null } | null;
}

export interface LeaseClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A lease this run holds. */
export class HeldLease {
  private lost: LeaseError | undefined;
  /** The takeover this holding began with, kept past the renewals that follow it. */
  private readonly tookOver: { evidence: string[]; reason: string | null } | undefined;

  constructor(
    private readonly store: RunStore,
    readonly name: string,
    private seq: number,
    public record: LeaseRecord,
    private readonly ttlMs: number,
    private readonly clock: LeaseClock,
    /** How long the run waited for it, for the reports. */
    readonly waitedMs: number,
    /** How the surface names the ways on a lost lease's hint gives (the CLI's flags by default). */
    private readonly ways: WaysOn = CLI_WAYS,
    /** What its messages call it (AcquireOptions.called): `lease NAME` by default. */
    private readonly called = `lease ${name}`,
  ) {
    this.tookOver =
      record.kind === 'takeover' ? { evidence: record.evidence ?? [], reason: record.reason ?? null } : undefined;
  }

  /** What every report shows of the lease: its name, its holder, how long the run waited, a takeover's evidence. */
  summary(): LeaseSummary {
    const takeover = this.tookOver ?? null;
    return { name: this.name, holder: holderText(this.record.holder), waitedMs: this.waitedMs, takeover };
  }

  /** The fencing token: the key of this holder's last record. */
  get token(): string {
    return `${leasePrefix(this.name)}${seq(this.seq)}`;
  }

  /** This holder's records in flight, one at a time: a heartbeat never races its own renewal, a check waits for it. */
  private writing: Promise<unknown> = Promise.resolve();

  private write(kind: LeaseRecord['kind'], extra: Partial<LeaseRecord> = {}): Promise<boolean> {
    const next = this.writing.then(() => this.writeNext(kind, extra));
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async writeNext(kind: LeaseRecord['kind'], extra: Partial<LeaseRecord>): Promise<boolean> {
    for (;;) {
      const now = this.clock.now();
      const record: LeaseRecord = {
        ...this.record,
        kind,
        at: now,
        expiresAt: kind === 'release' ? now : now + this.ttlMs,
        reason: undefined,
        evidence: undefined,
        parked: undefined,
        ...extra,
      };
      const at = this.seq + 1;
      const body = Buffer.from(JSON.stringify(record));
      let created: boolean;
      try {
        created = await this.store.create(`${leasePrefix(this.name)}${seq(at)}`, body);
      } catch (error) {
        // Its outcome unknown (the store may have applied it and failed the answer): remembered, so
        // the key found there later is known for this holder's own.
        this.unsettled.push({ seq: at, body, record });
        throw error;
      }
      if (created) {
        this.seq = at;
        this.record = record;
        this.unsettled = [];
        return true;
      }
      // Taken: by this holder's own earlier record whose answer was lost, and the record is written
      // at the key after it; else by another's.
      if (!(await this.ownNext())) return false;
    }
  }

  /** This holder's records whose writes failed without an answer: one of them may be at the key after its last. */
  private unsettled: { seq: number; body: Buffer; record: LeaseRecord }[] = [];

  /**
   * Whether the key after this holder's last holds its own record, one whose write failed without an
   * answer (the store applied it, then failed: a 503 after the write, its read-back failed too):
   * the same bytes it wrote. Then it is this holder's last (its token) and true. Only those bytes
   * are its own: any other record there (a release copies the holder) is another's. Nothing to
   * compare with: false, unread. The key cannot be read: the store's error, the lease not lost.
   */
  private async ownNext(): Promise<boolean> {
    const at = this.seq + 1;
    const mine = this.unsettled.filter((u) => u.seq === at);
    if (mine.length === 0) return false;
    const found = await this.store.get(`${leasePrefix(this.name)}${seq(at)}`);
    const own = found && mine.find((u) => u.body.equals(found));
    if (!own) return false;
    this.seq = at;
    this.record = own.record;
    this.unsettled = this.unsettled.filter((u) => u.seq > at);
    return true;
  }

  /** The heartbeat: the next key of the sequence, with a new expiry. A key already there that is not its own (ownNext) is another's: the lease is lost. */
  async renew(): Promise<void> {
    if (this.lost) throw this.lost;
    if (!(await this.write('renew'))) this.lost = await this.lostToNext();
  }

  /**
   * A parked run keeps it (park: { keep-lease: true }): renewed once more, marked for the run's own
   * continue to take back. Not kept (LEASE_LOST, or the store's error) when that record is refused
   * (its key another's) or the lease was lost before: a park never says it kept a lease it did not.
   */
  async park(): Promise<void> {
    if (this.lost) throw this.lost;
    if (!(await this.write('renew', { parked: true }))) throw (this.lost = await this.lostToNext());
  }

  /** Before every write: still this run's (no key after its own, its expiry not passed), or LEASE_LOST. */
  async check(): Promise<void> {
    if (this.lost) throw this.lost;
    // Its own renewal being written: the key after its last is its own until that write answers.
    await this.writing;
    if (this.lost) throw this.lost;
    // The key after its last: another's record (lost), or its own renewal whose answer was lost (its token now, and the key after that is read).
    while (await this.store.get(`${leasePrefix(this.name)}${seq(this.seq + 1)}`))
      if (!(await this.ownNext())) {
        this.lost = await this.lostToNext();
        break;
      }
    return this.stillHeld();
  }

  /**
   * Its expiry not passed on this runner's clock, nothing read (the instant before a write leaves,
   * its record written: a runner paused there past its expiry may have been taken over, on a clock
   * within the ttl's margin of this one), or LEASE_LOST.
   */
  async stillHeld(): Promise<void> {
    if (this.lost) throw this.lost;
    await this.writing;
    if (!this.lost && this.clock.now() > this.record.expiresAt)
      this.lost = this.lostTo(
        `it expired at ${new Date(this.record.expiresAt).toISOString()} without a renewal (this run was paused, or could not reach the store)`,
        `a run that takes it over verifies what this one may have sent first; ${this.resumeStored} once the lease is free (every report of this run is written)`,
        { how: 'lapsed', at: this.record.expiresAt },
      );
    if (this.lost) throw this.lost;
  }

  /**
   * Lost to the record after this holder's last, by its kind: an operator's release (lease
   * release: no run took it over, nothing verified this run's calls), another run's takeover
   * (which verified them first), or another runner of this same run that went on with it (an
   * acquire, or a takeover of its own run's expired lease: nothing verified this runner's calls
   * for it; the resume that goes on refuses them until --in-doubt decides them).
   */
  private async lostToNext(): Promise<LeaseError> {
    const next = await readLeaseRecord(this.store, `${leasePrefix(this.name)}${seq(this.seq + 1)}`).catch(
      () => undefined,
    );
    if (next?.kind === 'release') {
      const by = next.by ?? holderText(next.holder);
      return this.lostTo(
        `it was released by ${by}${next.reason ? ` (${next.reason})` : ''} at ${new Date(next.at).toISOString()}; no run took it over`,
        `nothing verified what this run may have sent: ${this.resumeStored}, which verifies the calls it left in doubt (every report of this run is written)`,
        { how: 'released', by, reason: next.reason, at: next.at },
      );
    }
    if (next?.kind === 'takeover' && next.holder.runId !== this.record.holder.runId)
      return this.lostTo(
        `${holderText(next.holder)} took it over`,
        `the run that took it verified what this one may have sent before it did; ${this.resumeStored} once it is done (every report of this run is written)`,
        { how: 'taken', by: holderText(next.holder) },
      );
    if (next) {
      const same = next.holder.runId === this.record.holder.runId;
      const by = same ? 'another runner of this run' : holderText(next.holder);
      return this.lostTo(
        `${by} (${next.holder.actor} on ${next.holder.host}) went on with it at ${new Date(next.at).toISOString()}, verifying nothing of this runner's calls`,
        `the calls this runner left in doubt must be checked before anything is sent again: once that runner has ended, ${this.resumeStored} with ${this.ways.inDoubt('verify')} (every report of this run is written)`,
        { how: 'went-on', by },
      );
    }
    return this.lostTo(
      'the record after its last could not be read',
      `what this run may have sent is unchecked: ${this.resumeStored} with ${this.ways.inDoubt('verify')} once the lease is free (every report of this run is written)`,
      { how: 'unread' },
    );
  }

  /** The resume of this holder's run from the store, in the words of the surface in use. */
  private get resumeStored(): string {
    return this.ways.resumeStored(this.record.holder.runId);
  }

  /** What a message calls it: a run's own lease (app/run-own-lease.ts) is no name an operator sees. */
  private get label(): string {
    return this.name === `run.${this.record.holder.runId}`
      ? `run ${this.record.holder.runId}'s hold on itself`
      : this.called;
  }

  private lostTo(why: string, hint: string, loss: LeaseLoss): LeaseError {
    return new LeaseError('LEASE_LOST', `${this.label} is no longer this run's: ${why}; nothing more is sent`, {
      hint,
      loss,
    });
  }

  /** Gives the lease up (at the end of the run, on failure, on SIGTERM): the next waiter may take it at once. */
  async release(): Promise<void> {
    if (this.lost) return;
    await this.write('release');
  }

  /** A park's keep that failed (park), in words: the continue takes it as any run does, once it is free. */
  keepFailed(error: unknown): string {
    return `${this.called} was not kept for this run's continue (${(error as Error).message}): its continue takes it as any run does, once it is free`;
  }

  /** What its holder says when release() failed (a run's lease, a shard worker's): it holds until its ttl. */
  releaseFailed(error: unknown): string {
    return `${this.called} could not be released (${(error as Error).message}): it expires by itself at ${new Date(this.record.expiresAt).toISOString()}`;
  }
}

export interface AcquireOptions {
  holder: LeaseHolder;
  ttlMs: number;
  /** How long to queue for it; 0 refuses at once. */
  waitMs: number;
  clock: LeaseClock;
  signal?: AbortSignal | undefined;
  /**
   * Asked before an expired lease is taken over: what verify reads of the previous holder's
   * in-doubt calls, as lines of evidence; throws (LEASE_TAKEOVER_REFUSED) when it cannot tell.
   */
  verifyTakeover(expired: LeaseRecord): Promise<{ evidence: string[]; reason?: string | undefined }>;
  /** Said while the run waits: who holds it, until when. */
  onWait?(message: string): void;
  /**
   * A run's own lease (app/run-own-lease.ts): taken when its last record was released, lapsed or
   * parked, never from a live runner, not even one of this same run; refused at once then.
   */
  sameRun?: boolean | undefined;
  /** How the surface names the ways on the hint of a lease lost later gives (the CLI's flags by default). */
  ways?: WaysOn | undefined;
  /** What its messages call it, `lease NAME` by default: a shard worker's says its shard (`lease RUN.shard-0 (shard 1/4)`). */
  called?: string | undefined;
}

const calledOf = (name: string, options: AcquireOptions) => options.called ?? `lease ${name}`;

export const holderText = (h: LeaseHolder) =>
  `run ${h.runId} of ${h.actor} on ${h.host}${h.ciRunUrl ? ` (${h.ciRunUrl})` : ''}`;

/** Takes the lease: at once when it is free, by a verified takeover when it expired, else queued up to `waitMs`. */
export async function acquireLease(store: RunStore, name: string, options: AcquireOptions): Promise<HeldLease> {
  checkLeaseName(name, options.ways);
  const started = options.clock.now();
  let ticket: number | undefined;
  try {
    return await queueFor(
      store,
      name,
      options,
      started,
      () => ticket,
      (n) => (ticket = n),
    );
  } catch (error) {
    // A waiter that gives up (its wait ran out, a takeover refused, interrupted) leaves the queue: the next is not held behind it.
    if (ticket !== undefined) await withdraw(store, name, ticket);
    // A signal (SIGINT, SIGTERM) cut the wait: told as the interruption it is, never as the wait's own
    // failure; one that cut a takeover's read-back of the calls in doubt, as that.
    if (error instanceof Interrupted)
      throw new Interrupted(`taking the ${calledOf(name, options)} over: ${error.message}`);
    throw interruptedRead(options.signal, `waiting for the ${calledOf(name, options)}`, 'nothing was sent') ?? error;
  }
}

/** A ticket given up: the next in line is not held behind it. */
const withdraw = (store: RunStore, name: string, ticket: number) =>
  store.create(`${leasePrefix(name)}queue/${seq(ticket)}.withdrawn`, Buffer.from('{}')).catch(() => undefined);

async function queueFor(
  store: RunStore,
  name: string,
  options: AcquireOptions,
  started: number,
  mine: () => number | undefined,
  took: (n: number | undefined) => void,
): Promise<HeldLease> {
  const { clock } = options;
  const deadline = started + options.waitMs;
  const poll = Math.max(1_000, Math.min(options.ttlMs / 4, 5_000));
  let said = '';
  /** When its ticket was last renewed (taken, or its heartbeat). */
  let renewed = 0;
  /** Its record whose write failed without an answer (the store may have applied it): read again once. */
  let inDoubt: { seq: number; body: Buffer; record: LeaseRecord; error: unknown } | undefined;
  /** The lease's newest record as this waiter first read it, on its own clock (lapse.ts). */
  let seen: FirstSeen | undefined;
  /** The first record whose lapse this waiter confirmed (waited for past its deadline): one after it is a live writer's. */
  let confirming: number | undefined;
  /** Its ticket's `until`: an earlier enginectl drops the ticket once it passed, so this waiter waits no longer. */
  let ticketUntil = Infinity;
  for (;;) {
    let ticket = mine();
    const state = await leaseState(store, name, options.ways);
    if (inDoubt) {
      // The newest record is its own (the bytes it wrote): it holds the lease. Else that write failed; said.
      const own =
        state?.seq === inDoubt.seq &&
        (await store.get(`${leasePrefix(name)}${seq(inDoubt.seq)}`))?.equals(inDoubt.body);
      if (!own) throw inDoubt.error;
      // Renewed at once: the store's retries may have outlasted its expiry (a run that took it meanwhile stops this one, nothing sent).
      const held = new HeldLease(
        store,
        name,
        inDoubt.seq,
        inDoubt.record,
        options.ttlMs,
        clock,
        clock.now() - started,
        options.ways,
        calledOf(name, options),
      );
      await held.renew();
      await held.stillHeld();
      return held;
    }
    const now = clock.now();
    if (ticket !== undefined && now > renewed + options.ttlMs) {
      // Not renewed for the ttl (this waiter was paused): others passed it over; it queues again, at the end.
      await withdraw(store, name, ticket);
      took((ticket = undefined));
      ticketUntil = Infinity;
    } else if (ticket !== undefined && now - renewed >= options.ttlMs / 3) {
      // The ticket's heartbeat: a waiter that is gone (killed) holds no place once the ttl passed without one.
      await store
        .create(`${leasePrefix(name)}queue/${seq(ticket)}.beat.${Math.max(0, Math.floor(now))}`, Buffer.from('{}'))
        .catch(() => false);
      renewed = now;
    }
    const free = !state || state.record.kind === 'release';
    seen = state && seen?.seq === state.seq ? seen : state && { seq: state.seq, at: now };
    const lapse = free ? undefined : lapseOf(state!.record, seen!, now);
    const expired = lapse?.confirmed === true;
    // Kept by this same run while it was parked: its continue takes it back, nothing to verify.
    // A live record is never taken, not even by its own run's next runner (a run's own lease,
    // `sameRun`): that runner may have a call in flight, which the next would read as not applied.
    const kept =
      !free &&
      lapse === undefined &&
      state!.record.parked === true &&
      state!.record.holder.runId === options.holder.runId;
    const served = state?.record.served ?? 0;
    const line = await queuedRuns(store, name, served, now);
    // Its turn: no live ticket before its own.
    const myTurn = ticket === undefined ? line.length === 0 : !line.some((t) => t.n < ticket);
    if ((free || expired || kept) && myTurn) {
      const verified = expired ? await options.verifyTakeover(state!.record) : undefined;
      const record: LeaseRecord = {
        v: 1,
        kind: expired ? 'takeover' : 'acquire',
        holder: options.holder,
        at: clock.now(),
        expiresAt: clock.now() + options.ttlMs,
        served: Math.max(served, ticket ?? 0),
        ...(verified
          ? {
              evidence: [
                `took over from ${holderText(state!.record.holder)}, expired at ${new Date(state!.record.expiresAt).toISOString()} (${lapse!.how})`,
                ...verified.evidence,
              ],
              ...(verified.reason ? { reason: verified.reason } : {}),
            }
          : {}),
      };
      const next = (state?.seq ?? 0) + 1;
      const body = Buffer.from(JSON.stringify(record));
      try {
        if (await store.create(`${leasePrefix(name)}${seq(next)}`, body))
          return new HeldLease(
            store,
            name,
            next,
            record,
            options.ttlMs,
            clock,
            clock.now() - started,
            options.ways,
            calledOf(name, options),
          );
      } catch (error) {
        // Its outcome unknown: the lease read again, and this record known by its bytes if it is there.
        inDoubt = { seq: next, body, record, error };
      }
      continue;
    }
    // Its expiry passed on this clock, not yet confirmed on it: waited for, whatever the wait (a run that does not wait too);
    // once. A record written after the one it confirmed is a live holder's (renewed: a clock more than its ttl
    // ahead reads each renewal's expiry passed): waited for as a live holder is, up to the deadline.
    if (lapse && !lapse.confirmed) confirming ??= state!.seq;
    // Never past its ticket's until (an earlier enginectl's readers would pass it over then): given up there.
    const until =
      lapse && !lapse.confirmed && myTurn && state!.seq === confirming
        ? Math.max(deadline, Math.min(lapse.at, ticketUntil))
        : deadline;
    if (now >= until) {
      const before = line.filter((t) => ticket === undefined || t.n < ticket).length;
      throw heldError(name, options, free ? undefined : state!.record, lapse, before, now - started, now);
    }
    if (ticket === undefined) renewed = now;
    // Its ticket's `until`, read by an earlier enginectl alone: past the longest this wait may run,
    // confirming a lapse of the holder's ttl (the longer of it and this waiter's own).
    if (ticket === undefined) {
      const longest = Math.max(options.ttlMs, state && !free ? heldTtl(state.record) : 0);
      ticketUntil = Math.max(until, deadline + longest);
    }
    const taken = ticket ?? (await takeTicket(store, name, options.holder.runId, now, ticketUntil, options.ttlMs));
    took(taken);
    const message =
      state && !free
        ? `${calledOf(name, options)}: held by ${holderText(state.record.holder)} until ${new Date(state.record.expiresAt).toISOString()}${lapse ? lapse.waiting : ''}; waiting (ticket ${taken})`
        : `${calledOf(name, options)}: waiting for the runs queued before this one (ticket ${taken})`;
    if (message !== said) options.onWait?.(message);
    said = message;
    const next = lapse && !lapse.confirmed ? Math.min(until, lapse.at) : until;
    await clock.sleep(Math.min(poll, Math.max(1, next - now)), options.signal);
  }
}

/**
 * Why a waiter whose wait is over did not take the lease: its holder (`held`: undefined when it is
 * free), or the `before` runs queued before it. An expiry past on this runner's clock is said as
 * its holder's renewal on its own clock, past on this one (pastExpiry), never "held until" then.
 */
function heldError(
  name: string,
  options: AcquireOptions,
  held: LeaseRecord | undefined,
  lapse: Lapse | undefined,
  before: number,
  waited: number,
  now: number,
): LeaseError {
  const until = held && new Date(held.expiresAt).toISOString();
  const past = held && pastExpiry(held, now, held.holder.host);
  if (options.sameRun && held)
    return new LeaseError(
      'LEASE_HELD',
      `run ${options.holder.runId} is held by another runner of it (${holderText(held.holder)}), ${past ? past.said : `whose hold is renewed until ${until}`}: a call it has in flight is not in doubt; nothing was sent`,
      {
        hint: past
          ? `go on once that runner has ended; if it is gone (killed), run the same command again: it goes on once the hold's record stays unchanged for its ttl on this runner's clock; ${past.clocks}`
          : `go on once that runner has ended; if it is gone (killed), its hold lapses at ${until} unless renewed: run the same command again then`,
      },
    );
  const queued = `the ${before} run(s) queued before this one`;
  const by = !held
    ? queued
    : lapse?.confirmed
      ? `${queued}, which take it in turn: its holder, ${holderText(held.holder)}, lapsed (its hold ran until ${until} on its clock)`
      : `${holderText(held.holder)}${past ? `, ${past.said}` : ` until ${until}`}${before > 0 ? `, and ${queued}` : ''}`;
  return new LeaseError(
    'LEASE_HELD',
    `${calledOf(name, options)} is held by ${by}; ${options.waitMs === 0 ? 'this run does not wait (wait: 0s)' : `waited ${Math.round(waited / 1000)}s`}`,
    {
      hint: `nothing was sent: ${(options.ways ?? CLI_WAYS).leaseWait}; enginectl lease status says who holds it${past && !lapse?.confirmed ? `; ${past.clocks}` : ''}`,
    },
  );
}

async function takeTicket(
  store: RunStore,
  name: string,
  runId: string,
  now: number,
  until: number,
  ttl: number,
): Promise<number> {
  const prefix = `${leasePrefix(name)}queue/`;
  for (;;) {
    const listed = await newestListed(store, prefix);
    // The tickets a listing that lags left out, read by name: else the same taken number, tried again and again.
    const n = listed + (await keysAfterListing(store, prefix, listed + 1)).length + 1;
    if (await store.create(`${prefix}${seq(n)}`, Buffer.from(JSON.stringify({ runId, at: now, until, ttl })))) return n;
  }
}
