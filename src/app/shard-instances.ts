// A sharded run's planned instances in the store (`shards/RUN/instances`): each instance of the
// rollout's steps as one process would plan it (its step, name, server, matrix values), written
// once by `enginectl shard` before the manifest. A worker never reads it; the merged report does,
// to list the instances a halt left not started, as one process's report lists them. A run
// sharded before it existed has none: its merged report names the sites alone, as it did.
import { z } from 'zod';
import { EnginectlError } from '../errors.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { InstanceIdentity } from '../runner/instance.ts';
import { Masker } from '../runner/masker.ts';
import { teachSecrets } from './journal-setup.ts';
import { plannedInstances } from '../runner/planned.ts';
import type { Env } from '../runner/scope.ts';
import { readShardRecord, shardKeys } from '../shard/manifest.ts';
import type { RunStore } from '../store/store.ts';

/** An instance as the store keeps it: its identity but its key (the report shows none). */
const Planned = InstanceIdentity.omit({ key: true });
export type Planned = z.infer<typeof Planned>;

/**
 * Writes the pipeline's instances to the run's key, each name masked as a run masks it; nothing
 * when they cannot be named here (a var that reads a secret this job was not given): the merged
 * report then names the sites a halt left alone.
 */
export async function storePlanned(store: RunStore, run: string, pipeline: Pipeline, env: Env): Promise<void> {
  const masker = new Masker();
  teachSecrets(pipeline, env, masker);
  let planned: Planned[];
  try {
    planned = plannedInstances(pipeline, env, masker).map(({ key: _key, ...identity }) => identity);
  } catch (error) {
    if (error instanceof EnginectlError) return;
    throw error;
  }
  await store.create(shardKeys(run).instances, Buffer.from(JSON.stringify(planned)));
}

export const readPlanned = (store: RunStore, run: string): Promise<Planned[] | undefined> =>
  readShardRecord(store, shardKeys(run).instances, z.array(Planned), "a sharded run's planned instances");
