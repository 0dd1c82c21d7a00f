// What lease status and lease release say of a sharded run's worker lease (RUN.shard-K): the shard
// it is, I/N counted from 1 as --shard gives it (K = I - 1, the name every run in a store holds),
// or that its index is past the run's shards (an operator counting from 1): each shard's name then.
import { formatDuration } from '../duration.ts';
import {
  Manifest,
  MANIFEST_VERSIONS,
  readShardRecord,
  shardKeys,
  workerLease,
  workerLeaseOf,
} from '../shard/manifest.ts';
import type { LeaseRecord } from '../store/lease.ts';
import type { RunStore } from '../store/store.ts';

export interface WorkerLeaseShard {
  /** After the lease's name: ` (shard 1/4 of run RUN)`, or `: no shard of run RUN (...)`. */
  words: string;
  /** Its shard, I/N, when it is one. */
  shard?: string;
}

/** The shard a lease is the worker lease of; undefined when its name is no sharded run's worker's (or the store holds no such run). */
export async function workerLeaseShard(store: RunStore, name: string): Promise<WorkerLeaseShard | undefined> {
  const worker = workerLeaseOf(name);
  if (!worker) return undefined;
  // Words alone: a store that fails here leaves them out (lease release reads the manifest again, and says its failure).
  const manifest = await readShardRecord(
    store,
    shardKeys(worker.run).manifest,
    Manifest,
    'a manifest',
    MANIFEST_VERSIONS,
  ).catch(() => undefined);
  if (!manifest) return undefined;
  const n = manifest.shards;
  if (worker.index < n) {
    const shard = `${worker.index + 1}/${n}`;
    return { words: ` (shard ${shard} of run ${worker.run})`, shard };
  }
  const of = (k: number) => `${workerLease(worker.run, k)} for --shard ${k + 1}/${n}`;
  return {
    words: `: no shard of run ${worker.run} (${n} shard${n === 1 ? '' : 's'}: ${n === 1 ? of(0) : `${of(0)} .. ${of(n - 1)}`})`,
  };
}

/** What a release of a worker lease says of the worker that held it: alive when it renewed it within its ttl. */
export function releasedWorker(shard: string, record: LeaseRecord, now: number): string {
  const ago = formatDuration(Math.max(0, now - record.at));
  return now <= record.expiresAt
    ? `its holder renewed it ${ago} ago: the worker of shard ${shard} was alive then; it stops before its next write (exit 69), and running --shard ${shard} again takes its sites over`
    : `its holder last renewed it ${ago} ago (its hold ran until ${new Date(record.expiresAt).toISOString()}): the worker of shard ${shard} is gone; running --shard ${shard} again takes its sites over`;
}
