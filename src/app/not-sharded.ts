// A command of a sharded run (report --merge --store, a worker: run --shard) given a run of the
// store that is not sharded: a one-job run (run --store), or the run a worker started for one site
// of a sharded run. "holds no sharded run", hinting to plan one, would send its reader to
// enginectl shard; it is told as what it is, with the command for it (each command's words). An
// id the store holds nothing of is refused as before.
import { journalPrefix } from '../journal/replica.ts';
import { NoShardedRun } from '../shard/manifest.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import { shellWord } from '../text/shell-word.ts';

const SITE_RUN = /^shards\/([^/]+)\/runs\/([^/]+)$/;

/** What to run instead, by the command given the run: of a one-job run, and of a site's run of sharded run `sharded`. */
export interface NotShardedHints {
  oneJob(store: string, run: string): string;
  siteRun(store: string, run: string, sharded: string): string;
}

const reportAlone = (store: string, run: string) => `enginectl report --store ${store} --run ${run}`;

/** report --merge --store: the command that reports the run. */
export const MERGE_HINTS: NotShardedHints = {
  oneJob: (store, run) => `${reportAlone(store, run)} renders its reports (--merge --store is for a sharded run)`,
  siteRun: (store, run, sharded) =>
    `enginectl report --merge --store ${store} --run ${sharded} reports the sharded run; ${reportAlone(store, run)} this site's run alone`,
};

/** A worker (run --shard): the one-job run goes on in one job; a site's run, through the sharded run's workers. */
export const WORKER_HINTS: NotShardedHints = {
  oneJob: (store, run) =>
    `a run of one job goes on in one job, not as a worker: enginectl run FILE --store ${store} --resume ${run} (--continue ${run} when it parked: enginectl decide --store ${store} --run ${run} says what it waits for)`,
  siteRun: (store, _run, sharded) =>
    `run the worker with the sharded run's id: enginectl run FILE --store ${store} --run ${sharded} --shard I/N (its workers go on with this site's run)`,
};

/** What `run` is when `error` says the store holds no sharded run of that id: thrown as it is otherwise. */
export async function notShardedRun(
  store: RunStore,
  run: string,
  error: unknown,
  hints: NotShardedHints = MERGE_HINTS,
): Promise<never> {
  if (!(error instanceof NoShardedRun)) throw error;
  let sharded: string | undefined;
  try {
    if ((await store.list(journalPrefix(run))).length === 0) throw error;
    sharded = (await store.list('shards/')).map((key) => SITE_RUN.exec(key)).find((m) => m?.[2] === run)?.[1];
  } catch (failed) {
    // Unread, it is still what the manifest's absence says: no sharded run of that id.
    if (failed === error || failed instanceof StoreError) throw error;
    throw failed;
  }
  throw new StoreError(
    'STORE_REFUSED',
    sharded === undefined
      ? `run ${run} of ${store.url} is not a sharded run: one job ran it`
      : `run ${run} of ${store.url} is not a sharded run: a worker of sharded run ${sharded} ran one site in it`,
    {
      // Named as a shell word: the hints are command lines to paste (a path with a space or a ').
      hint:
        sharded === undefined
          ? hints.oneJob(shellWord(store.url), run)
          : hints.siteRun(shellWord(store.url), run, sharded),
    },
  );
}
