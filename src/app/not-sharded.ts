// report --merge --store URL --run ID given a run of the store that is not sharded: a one-job run
// (run --store), or the run a worker started for one site of a sharded run. "holds no sharded run",
// hinting to plan one, would send its reader to enginectl shard; it is told as what it is, with the
// command that reports it. An id the store holds nothing of is refused as before.
import { journalPrefix } from '../journal/replica.ts';
import { NoShardedRun } from '../shard/manifest.ts';
import { StoreError, type RunStore } from '../store/store.ts';

const SITE_RUN = /^shards\/([^/]+)\/runs\/([^/]+)$/;

/** What `run` is when `error` says the store holds no sharded run of that id: thrown as it is otherwise. */
export async function notShardedRun(store: RunStore, run: string, error: unknown): Promise<never> {
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
  const alone = `enginectl report --store ${store.url} --run ${run}`;
  throw new StoreError(
    'STORE_REFUSED',
    sharded === undefined
      ? `run ${run} of ${store.url} is not a sharded run: one job ran it`
      : `run ${run} of ${store.url} is not a sharded run: a worker of sharded run ${sharded} ran one site in it`,
    {
      hint:
        sharded === undefined
          ? `${alone} renders its reports (--merge --store is for a sharded run)`
          : `enginectl report --merge --store ${store.url} --run ${sharded} reports the sharded run; ${alone} this site's run alone`,
    },
  );
}
