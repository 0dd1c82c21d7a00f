// A worker's own part of a sharded run, read before its pipeline is loaded: its index (--shard
// I/N, or the engine's variables) and, from the manifest in the store, the sites it owns, so the
// environment is asked only for their secrets. A store that fails here fails before anything is
// sent: the index can run again (ShardUnavailable, exit 69).
import { checkRunId } from '../journal/replica.ts';
import { EnginectlError, ExitCode, UsageError } from '../errors.ts';
import { SHARD_INDEX_SOURCES, shardIndexOf, type FoundIndex } from '../ci/shard-index.ts';
import { RUN_VARIABLE, storeAt } from '../app/stored-run.ts';
import { notShardedRun, WORKER_HINTS } from '../app/not-sharded.ts';
import { readManifest, shardOf } from '../shard/manifest.ts';
import type { Selection } from '../pipeline/selection.ts';
import { StoreError } from '../store/store.ts';
import type { CliIO } from './io.ts';

/** --shard I/N or auto: the 0-based index and the total it names (auto: the engine's variables). */
export function parseShard(
  given: string,
  env: CliIO['env'],
): { index: number; total: number | undefined; from: string; misfit?: FoundIndex['misfit'] | undefined } {
  if (given === 'auto') {
    const found = shardIndexOf(env);
    if (!found)
      throw new UsageError('SHARD_REFUSED', `--shard auto: no index in the environment (${SHARD_INDEX_SOURCES})`, {
        hint: 'give --shard I/N (1 <= I <= N)',
      });
    if ('ambiguous' in found)
      throw new UsageError(
        'SHARD_REFUSED',
        `--shard auto: two indexes in the environment, ${found.ambiguous.join(' and ')}; which is this worker's is not guessed`,
        { hint: 'give --shard I/N (1 <= I <= N), or unset the variable of the engine that does not run this worker' },
      );
    if (!Number.isInteger(found.index) || found.index < 0)
      throw new UsageError('SHARD_REFUSED', `--shard auto: ${found.from} is not an index`, {
        hint: 'give --shard I/N (1 <= I <= N)',
      });
    return found;
  }
  const m = /^([0-9]+)\/([0-9]+)$/.exec(given);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
    throw new UsageError('SHARD_REFUSED', `--shard ${given}: give I/N with 1 <= I <= N, or auto`, {
      hint: 'enginectl run fleet.yml --store URL --run ID --shard 3/8',
    });
  return { index: Number(m[1]) - 1, total: Number(m[2]), from: `--shard ${given}` };
}

/**
 * The instances a static shard runs, known from the manifest before the pipeline is loaded: the
 * environment is asked only for its sites' secrets (a queue worker may claim any site: every
 * one's). `analysed`: the rollout has an analysis between its waves, which any worker may be
 * elected to run over the sites of a wave that passed: its own sites and those of every wave but
 * the last (when it has gates, their secrets are asked for too; a worker that owns no site loads
 * those alone, or no site). Undefined when nothing narrows it (a queue worker).
 */
export async function shardSelection(
  given: { shard: string; run?: string | undefined },
  storeUrl: string | undefined,
  io: CliIO,
): Promise<{ owned: Selection; analysed: Selection | undefined } | undefined> {
  const run = given.run ?? io.env[RUN_VARIABLE];
  if (storeUrl === undefined || run === undefined) return undefined;
  checkRunId(run);
  const shard = parseShard(given.shard, io.env);
  let manifest;
  const store = storeAt(storeUrl, io.cwd, io.env, io.signal);
  try {
    // A one-job run's id, or a site run's, is told as what it is, with what to run instead.
    manifest = await readManifest(store, run).catch((e: unknown) => notShardedRun(store, run, e, WORKER_HINTS));
  } catch (error) {
    if (error instanceof StoreError && error.code === 'STORE_FAILED') throw beforeSending(error);
    throw error;
  }
  if (manifest.assign !== 'static') return undefined;
  const owned = manifest.waves.flat().filter((site) => shardOf(site, manifest.shards) === shard.index);
  // The sites of every wave but the last, which an analysis after it reads, whichever worker is elected to run it.
  const read = manifest.analysis ? manifest.waves.slice(0, -1).flat() : [];
  const only = (sites: string[]): Selection => ({ only: { [manifest.over]: sites }, skip: {} });
  // A worker that owns no site runs none: it loads the sites it may analyse, or none at all.
  if (owned.length === 0) return { owned: only(read), analysed: undefined };
  return { owned: only(owned), analysed: read.length ? only([...new Set([...owned, ...read])]) : undefined };
}

/**
 * The store failed before the worker sent anything: safe to run the index again (69), unless it
 * refused this runner for its permissions, which every attempt meets the same until someone
 * changes them: then it fails as run --store does (STORE_FAILED, exit 1), saying so.
 */
export function beforeSending(error: StoreError): EnginectlError {
  if (!error.permission) return new ShardUnavailable(error);
  return new StoreError(
    'STORE_FAILED',
    `${error.message}; this worker sent nothing, and running the same index again meets the same refusal: fix what the hint says first`,
    { hint: error.hint, cause: error, permission: true },
  );
}

/** The store or the lease failed before the worker sent anything: safe to run the index again. */
export class ShardUnavailable extends EnginectlError {
  readonly code = 'SHARD_UNAVAILABLE' as const;
  readonly exitCode = ExitCode.unavailable;
  constructor(cause: EnginectlError) {
    super(`${cause.message}; this worker sent nothing: run the same index again`, {
      // A worker's own lease has no wait: to give (it waits its ttl and a heartbeat for a live attempt of its index, within --shard-wait).
      hint:
        cause.code === 'LEASE_HELD'
          ? 'a live attempt of this index holds its lease: run the same index again once that attempt has ended (a killed one lapses within its ttl, --shard-ttl); enginectl lease status shows the holder'
          : cause.hint,
      cause,
    });
  }
}
