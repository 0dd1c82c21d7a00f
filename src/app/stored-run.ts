// A run kept in the run store (--store URL, or ENGINECTL_STORE): the store opened and probed, the
// run's id (new, or the one resumed), and the local journal file the run appends to: for a resume,
// laid anew from the store's copy, which is the run's truth wherever it ran before. Every group
// the journal syncs then goes to the store (journal/replica.ts).
import { randomBytes } from 'node:crypto';
import { lstatSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkRunId, JournalReplica, newRunId, readSegments, readStoredJournal } from '../journal/replica.ts';
import { openStore } from '../store/open.ts';
import { UsageError } from '../errors.ts';
import { pathToFileURL } from 'node:url';
import { probeStore } from '../store/probe.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import type { WaysOn } from '../ways-on.ts';

export const STORE_VARIABLE = 'ENGINECTL_STORE';
/** A sharded run's id, as `enginectl shard --format gitlab|k8s` hands it to the workers and the merge. */
export const RUN_VARIABLE = 'ENGINECTL_RUN';

/**
 * The store URL a command is given: --store, else ENGINECTL_STORE; undefined when neither is. An
 * empty or blank one (`--store ""`, a CI variable never defined) names no store and is refused,
 * never read as the directory the command runs in, where each runner would hold a lease of its own.
 */
export function storeUrlOf(
  given: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  option = '--store',
): string | undefined {
  const url = given ?? env[STORE_VARIABLE];
  if (url !== undefined && url.trim() === '') throw emptyStoreUrl(given !== undefined ? option : STORE_VARIABLE, url);
  return url;
}

const emptyStoreUrl = (where: string, url: string) =>
  new StoreError('STORE_REFUSED', `${where} is ${url === '' ? 'empty' : 'blank'}: an empty store URL names no store`, {
    hint: 'give it as s3://BUCKET/PREFIX or file:///PATH (file://$PWD for the directory the command runs in), or leave it unset for a run without a store',
  });

/**
 * The store a URL names: s3://BUCKET/PREFIX or file:///PATH (a plain path is a directory, as users
 * write one). `signal`: the run's stop, after which the store's calls are cut once their grace ran out.
 */
export function storeAt(
  url: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
  named?: string,
): RunStore {
  if (url.trim() === '') throw emptyStoreUrl('the store URL', url);
  // A URL with blanks around it is that URL, never a path that would show its credentials in every refusal.
  if (/^[a-z][a-z0-9+.-]*:/i.test(url.trim())) return openStore(url.trim(), { ...env }, { signal, named });
  return openStore(pathToFileURL(resolve(cwd, url)).href, { ...env }, { signal, named });
}

/** The store a command names (--store URL, else ENGINECTL_STORE); `why` says what the command needs it for. */
export function namedStore(
  command: string,
  given: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  why = '',
  /** The command's stop: an S3 store's calls are cut once their grace after it ran out (storeAt). */
  signal?: AbortSignal,
): RunStore {
  const url = storeUrlOf(given, env);
  if (url === undefined)
    throw new UsageError('BAD_ARGUMENTS', `${command}: ${why}give --store URL (or ENGINECTL_STORE)`, {
      hint: `enginectl ${command} --store s3://BUCKET/PREFIX (or file:///PATH)`,
    });
  return storeAt(url, cwd, env, signal);
}

/** The store a command that only reads names (runs, lease, report --merge --store): one that is not there is a wrong URL, refused, not a store with nothing in it. */
export async function storeToRead(
  command: string,
  given: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  why = '',
  signal?: AbortSignal,
): Promise<RunStore> {
  const store = namedStore(command, given, env, cwd, why, signal);
  if (store.exists && !(await store.exists()))
    throw new StoreError('STORE_REFUSED', `${store.url}: no such directory: no run was written to this store`, {
      hint: `give the directory the runs wrote to (their --store or ENGINECTL_STORE), as file:///ABSOLUTE/PATH`,
    });
  return store;
}

export interface StoredRun {
  store: RunStore;
  runId: string;
  /** The local journal file the run appends to. */
  path: string;
  resume: boolean;
  /** Where the journal's next segment goes. */
  replica: JournalReplica;
}

export async function openStoredRun(request: {
  url: string;
  resumeId?: string | undefined;
  /** Where resumeId was given, as a refusal names it: the CLI's --run by default, an action's input. */
  resumeNamed?: string | undefined;
  /** Where the URL was given, likewise: the CLI's --store by default. */
  storeNamed?: string | undefined;
  /** A new run's id, when the caller chose it (a sharded run's site, named in the wave's log before it starts). */
  newId?: string | undefined;
  journal?: string | undefined;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  tmpdir: string;
  now: number;
  /** The store opened and probed already (a shard worker's, for each of its sites): not opened or probed again. */
  store?: RunStore | undefined;
  /** The run's stop: an S3 store's calls are cut once their grace after it ran out (storeAt). */
  signal?: AbortSignal | undefined;
  /** How the surface names the ways on a refusal of the stored journal gives (the CLI's flags by default). */
  ways?: WaysOn | undefined;
}): Promise<StoredRun> {
  let store = request.store;
  if (!store) {
    store = storeAt(request.url, request.cwd, request.env, request.signal, request.storeNamed);
    await probeStore(store, () => request.now);
  }
  if (request.resumeId === undefined) {
    const runId = request.newId === undefined ? newRunId(request.now) : checkRunId(request.newId);
    const path = request.journal ?? join(request.tmpdir, `enginectl-${runId}.journal.jsonl`);
    return { store, runId, path, resume: false, replica: new JournalReplica(store, runId) };
  }
  const runId = checkRunId(request.resumeId, request.resumeNamed, request.ways);
  const { text, segments } = await readStoredJournal(store, runId, request.ways);
  // A copy of its own: two jobs going on with the same run at once never write one file (the lease, or the store's create-only segment, refuses one).
  const path =
    request.journal ?? join(request.tmpdir, `enginectl-${runId}.${randomBytes(4).toString('hex')}.journal.jsonl`);
  layCopy(path, runId, text);
  return { store, runId, path, resume: true, replica: new JournalReplica(store, runId, segments) };
}

/**
 * The run's journal read from the store, laid in its local copy. A copy that cannot be written (a
 * full disk) is invalid input naming the file, nothing run; a torn regular file is not left (a
 * device or a FIFO given as --journal is left as it is).
 */
function layCopy(path: string, runId: string, text: string): void {
  try {
    writeFileSync(path, text, { mode: 0o600 });
  } catch (error) {
    try {
      if (lstatSync(path).isFile()) unlinkSync(path);
    } catch {
      // Not there: nothing is left.
    }
    throw new UsageError(
      'BAD_JOURNAL',
      `journal ${path}: cannot lay the journal of run ${runId} from the store in it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      {
        hint: 'free space on that disk, or give --journal a file in a directory this process can write; nothing was run',
      },
    );
  }
}

/**
 * A resumed run's journal fenced before this runner goes on with it: its next segment taken,
 * empty, so that a runner that was going on with the run (paused past its lease, its site taken
 * over) puts nothing more in it, and the store never holds that runner's word after this one's
 * decisions. Made once this runner may go on (its lease held, its takeover won): a runner refused
 * must not stop a live one. An empty segment adds nothing to the journal.
 *
 * `fenceStoredRun`, before the journal is read into the run (a shard's site taken over): a segment
 * put since this runner read the journal is read with it (the local copy laid again) and the next
 * one taken, a few times at most.
 */
export async function fenceStoredRun(stored: StoredRun, tries = 8): Promise<void> {
  for (let i = 0; !(await stored.replica.fence()); i++) {
    if (i + 1 >= tries) throw grew(stored.store, stored.runId);
    await readStoredRunAgain(stored);
  }
}

/**
 * A resumed run's journal read again from the store, its local copy laid anew: once this runner
 * holds the run (app/run-own-lease.ts), so that what it verifies and decides is what the runner
 * before it left, not the copy openStoredRun read before the lease was taken.
 */
export async function readStoredRunAgain(stored: StoredRun, ways?: WaysOn): Promise<void> {
  const { text, segments } = await readStoredJournal(stored.store, stored.runId, ways);
  layCopy(stored.path, stored.runId, text);
  stored.replica.readAgain(segments);
}

/**
 * A run taken over from a runner that is gone (a shard's site), fenced before anything is read or
 * decided: its journal, when the store holds a record of it, laid in a local file of its own
 * (`journal()`) and fenced as any resume; with no record yet (the runner gone put none, or fences
 * alone), the next segment taken empty, and the run started afresh after it, so that a first
 * segment the runner gone puts late is refused (it stops, its lease lost) rather than refusing
 * this runner's. A segment put between the read and the fence is read with the rest.
 */
export async function takeOverStoredRun(
  store: RunStore,
  runId: string,
  journal: () => string,
  tries = 8,
): Promise<StoredRun> {
  checkRunId(runId);
  for (let i = 0; i < tries; i++) {
    const { text, segments } = await readSegments(store, runId);
    const replica = new JournalReplica(store, runId, segments);
    if (text !== '') {
      const stored = { store, runId, path: journal(), resume: true, replica };
      layCopy(stored.path, runId, text);
      await fenceStoredRun(stored, tries);
      return stored;
    }
    if (await replica.fence()) return { store, runId, path: journal(), resume: false, replica };
  }
  throw grew(store, runId);
}

const grew = (store: RunStore, runId: string) =>
  new StoreError(
    'STORE_FAILED',
    `${store.url}: run ${runId}'s journal grew after this runner read it (the runner that held it before is still writing): nothing was sent`,
    { hint: 'run the same command again once that runner has stopped (its lease lapsed, it stops at its next write)' },
  );

/** Where a stored run's journal is, which names it (`run ID` in a refusal, `URL run ID` in the reports); nothing without a store. */
export const storedJournalNames = (stored: StoredRun | undefined) => (stored ? { storedAt: stored.replica.at } : {});
