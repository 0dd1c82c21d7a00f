// The run store: where a run's state outlives its machine (an S3 bucket, a shared directory). One
// small interface, and one conditional write: create-only. A key is written once and never
// changed; a sequence of state (a lease, a journal) is a sequence of keys, the newest the state.
// Create-only is the write every store measured gets right (S3's `If-None-Match: *`, O_EXCL),
// where compare-and-swap is not (Ceph's RGW answers 500 to the losers of an `If-Match` race).
import { setMaxListeners } from 'node:events';
import { EnginectlError, ExitCode } from '../errors.ts';
import type { ErrorCode } from '../error-codes.ts';
import { formatDuration } from '../duration.ts';
import { endBySignalIfHeld, type TrappedSignals } from '../signals.ts';

export interface RunStore {
  /** The store as a person names it (no credentials): s3://bucket/prefix, file:///path. */
  readonly url: string;
  /** The body of `key`, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Writes `key` only if it does not exist: true when this call created it, false when it existed. */
  create(key: string, body: Buffer): Promise<boolean>;
  /**
   * `body` made ready to be created at `key`, then at another key when that one existed: the next
   * key of a sequence, tried again after each race lost. A directory writes and syncs the body
   * once, then each try is one link(2); in S3 each try is the create. `release` when done with it.
   */
  prepare(key: string, body: Buffer): Promise<PreparedBody>;
  /** The keys under `prefix`, in order. */
  list(prefix: string): Promise<string[]>;
  /** Whether the store is there to be read (a directory's root); a store without it (S3: a missing bucket fails its first call) says so itself. */
  exists?(): Promise<boolean>;
  /** Fails (STORE_FAILED) when the store's own place is not there: a directory's root, never made by enginectl. */
  there?(): Promise<void>;
}

/** A body ready to be created at a key (RunStore.prepare). */
export interface PreparedBody {
  /** As RunStore.create of the body at `key`: true when this call created it, false when it existed. */
  create(key: string): Promise<boolean>;
  /** Gives up what the store held for it (a directory's temporary file); the keys created stay. */
  release(): Promise<void>;
}

/** The store failed or cannot be used: the run stops before its next call (exit 1), or refuses to start (exit 2). */
export class StoreError extends EnginectlError {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  /** The store refused this runner for its permissions (EACCES, EPERM; S3's 401, 403): the same call meets the same refusal until they change. */
  readonly permission: boolean;

  constructor(
    code: 'STORE_FAILED' | 'STORE_REFUSED' | 'STORE_DAMAGED' | 'STORE_VERSION',
    message: string,
    options: { hint?: string; cause?: unknown; permission?: boolean } = {},
  ) {
    super(message, options);
    this.code = code;
    this.permission = options.permission === true;
    this.exitCode = code === 'STORE_REFUSED' || code === 'STORE_VERSION' ? ExitCode.invalidInput : ExitCode.failed;
  }
}

/** A store URL as it may be printed: store-name.ts. */
export { nameOfStore } from './store-name.ts';

/** The user and password a store URL carries (up to its last @, as nameOfStore hides them), for the masking; undefined when it has none. */
export function storeUrlLogin(url: string): { username: string; password: string } | undefined {
  const userinfo = /^[A-Za-z][A-Za-z0-9+.-]*:\/*([^]*)@/.exec(url)?.[1];
  const colon = userinfo?.indexOf(':') ?? -1;
  if (userinfo === undefined || colon < 0 || colon === userinfo.length - 1) return undefined;
  return { username: userinfo.slice(0, colon), password: userinfo.slice(colon + 1) };
}

/**
 * The most bytes a key holds: a lease record, a journal segment (one group of records the journal
 * synced: hashes and names, not bodies), a shard's manifest. A larger one was not written by
 * enginectl, and is refused before it is read (a store's read bound, not the string's limit).
 */
export const MAX_KEY_BYTES = 64 * 1024 * 1024;

/** A key over MAX_KEY_BYTES: damaged, named, and read no further. */
export const keyTooLarge = (store: string, key: string, size: number) =>
  new StoreError(
    'STORE_DAMAGED',
    `${store}: ${key} holds ${size} bytes, over the ${MAX_KEY_BYTES / 1024 / 1024} MiB any record of enginectl takes: it was not written by enginectl`,
    { hint: 'move that key out of the store (it may be a file copied or planted there), then run the command again' },
  );

/** A key is a path of plain segments: nothing a store could read as another place (.., //, a backslash). */
export function checkKey(key: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._=-]*(\/[A-Za-z0-9][A-Za-z0-9._=-]*)*$/.test(key))
    throw new StoreError('STORE_FAILED', `not a key of the run store: ${JSON.stringify(key)}`);
  return key;
}

/** The key of the n-th entry of a sequence (a journal segment, a lease record): 8 digits, so keys sort as numbers. */
export const sequenceKey = (n: number): string => String(n).padStart(8, '0');

/** The number of the newest key directly under `prefix` (`prefix` + 8 digits) a listing shows: 0 for none. */
export async function newestListed(store: RunStore, prefix: string): Promise<number> {
  const keys = (await store.list(prefix)).filter((k) => /^[0-9]{8}$/.test(k.slice(prefix.length)));
  return keys.length === 0 ? 0 : Number(keys.at(-1)!.slice(-8));
}

/** How many keys past a listing are read before the store is asked whether it answers a key never written. */
const PAST_LISTING = 16;

/**
 * The bodies of a sequence's keys from number `from` on (`prefix` + sequenceKey), read by name until
 * one is absent: those a listing left out, for a listing may lag the keys just created (an NFS
 * client's cached directory, an eventually consistent S3) where a read by name does not. Past 16,
 * the last key a sequence could have is read once: a store that answers it (an endpoint that
 * answers every path alike, a web page) holds no sequence, and is refused rather than read forever.
 */
export async function keysAfterListing(store: RunStore, prefix: string, from: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let n = from; ; n++) {
    if (n - from === PAST_LISTING) await refuseAnswersEveryKey(store, `${prefix}${sequenceKey(99_999_999)}`);
    const body = await store.get(`${prefix}${sequenceKey(n)}`);
    if (!body) return out;
    out.push(body);
  }
}

/**
 * Reads `key`, one never written, once: a store that answers it (an endpoint that answers every
 * path alike, a web page, a captive portal) holds no keys, and is refused (STORE_REFUSED). Its
 * listings, HTML, read as empty: a listing that shows nothing is checked so before it is believed.
 */
export async function refuseAnswersEveryKey(store: RunStore, key: string): Promise<void> {
  if (await store.get(key))
    throw new StoreError(
      'STORE_REFUSED',
      `${store.url} answers a key never written (${key}): it is not a store of keys`,
      {
        hint: 'check the store URL names the bucket (or the directory) and its endpoint, not a web page or a proxy that answers every path',
      },
    );
}

/** A signal aborted a grace after a run's stop (GraceCut.signal), and how that is said. */
export interface GraceCut {
  signal: AbortSignal;
  /** "the store's calls were cut 5s after SIGTERM (?grace=)". */
  said(): string;
}

/** Aborted `graceMs` after `stop` is (at once for a stop aborted already: from now); never without one. */
export function cutAfterGrace(stop: AbortSignal | undefined, graceMs: number): GraceCut {
  const cut = new AbortController();
  // Each call in flight listens to it till it ends (a wave's log is read 8 keys at once): no leak, no warning.
  setMaxListeners(0, cut.signal);
  let by = 'the stop';
  const start = () => {
    by = /received (SIG[A-Z]+)/.exec(String((stop?.reason as Error | undefined)?.message))?.[1] ?? by;
    setTimeout(() => cut.abort(new Error(`cut ${formatDuration(graceMs)} after ${by}`)), graceMs).unref();
  };
  if (stop?.aborted) start();
  else stop?.addEventListener('abort', start, { once: true });
  return {
    signal: cut.signal,
    said: () => `the store's calls were cut ${formatDuration(graceMs)} after ${by} (?grace=)`,
  };
}

/** Calls a grace cut left waiting: a directory store's, held by its file system in Node's thread pool, which cannot cancel them. */
let leftWaiting = 0;

/**
 * How many store calls a grace cut left waiting and still waiting: while one is, the process
 * cannot exit (Node's exit joins the thread pool's threads), and ends by the signal it was sent.
 */
export const storeCallsLeftWaiting = (): number => leftWaiting;

/** The threads of Node's pool (UV_THREADPOOL_SIZE, 4 by default): as many calls held, nothing else that needs it runs. */
const POOL_THREADS = Math.min(1024, Math.max(1, Number(process.env.UV_THREADPOOL_SIZE) || 4));
let poolHeld: ((cut: Error) => void) | undefined;

/**
 * A pool as full a second after the cut is held by the share, not by calls of a healthy one that
 * happened to be under way at the cut (those end in milliseconds, and the reports get written).
 */
const POOL_HELD_MS = 1_000;

/**
 * `act` (with the failure of the call that filled it), once as many calls are left waiting as
 * Node's pool has threads, and still are a second later: every thread is held, and nothing more
 * that needs one (a report written, a file read) can run; the process edge ends the command then
 * rather than wait on writes that cannot happen.
 */
export function whenPoolHeld(act: (cut: Error) => void): void {
  poolHeld = act;
}

/**
 * Ends the process by its signal as soon as the run store's calls left held after the cut fill
 * Node's thread pool (store.ts whenPoolHeld): nothing more can be written then, the reports neither.
 */
export function endWhenPoolHeld(signals: TrappedSignals, say: (text: string) => void): void {
  whenPoolHeld((cut) =>
    endBySignalIfHeld(
      signals,
      storeCallsLeftWaiting(),
      say,
      `filling Node's thread pool, so nothing more can be written, the reports neither (${cut.message})`,
    ),
  );
}

/**
 * `call()`, unless `cut` aborts first: then it fails at once with `fail()`, and the call, which
 * nothing can cancel (a file system call in the thread pool), is counted as left waiting until it
 * ends. Once `cut` is aborted, no call is started.
 */
export function unlessCut<T>(cut: AbortSignal, call: () => Promise<T>, fail: () => Error): Promise<T> {
  if (cut.aborted) return Promise.reject(fail());
  const running = call();
  return new Promise<T>((resolve, reject) => {
    const onCut = () => {
      const failure = fail();
      leftWaiting++;
      const ended = () => void leftWaiting--;
      running.then(ended, ended);
      reject(failure);
      if (leftWaiting >= POOL_THREADS)
        setTimeout(() => void (leftWaiting >= POOL_THREADS && poolHeld?.(failure)), POOL_HELD_MS).unref();
    };
    cut.addEventListener('abort', onCut, { once: true });
    const settled = () => cut.removeEventListener('abort', onCut);
    running.then(
      (value) => (settled(), resolve(value)),
      (error: unknown) => (settled(), reject(error as Error)),
    );
  });
}
