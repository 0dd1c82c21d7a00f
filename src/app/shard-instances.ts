// A sharded run's planned instances in the store (`shards/RUN/instances`): each instance of the
// rollout's steps as one process would plan it (its step, name, server, matrix values), written
// once by `enginectl shard` before the manifest. A worker never reads it; the merged report does,
// to list the instances a halt left not started, and the fleet's matrix in its order, as one
// process's report does. A run sharded before it existed has none: its merged report names the
// sites a halt left alone, in the order of the waves, as it did.
import { z } from 'zod';
import type { Pipeline } from '../pipeline/model.ts';
import { InstanceIdentity } from '../runner/instance.ts';
import { Masker } from '../runner/masker.ts';
import { plannedInstances } from '../runner/planned.ts';
import type { Env } from '../runner/scope.ts';
import { readShardRecord, shardKeys } from '../shard/manifest.ts';
import type { RunStore } from '../store/store.ts';
import { matrixUnion } from '../report/matrix-union.ts';

/** An instance as the store keeps it: its identity but its key (the report shows none). */
const Planned = InstanceIdentity.omit({ key: true });
export type Planned = z.infer<typeof Planned>;

/** Writes the pipeline's instances to the run's key, each name masked as a run masks it. */
export async function storePlanned(store: RunStore, run: string, pipeline: Pipeline, env: Env): Promise<void> {
  // A new masker, taught the pipeline's secrets as the plan resolves the run.
  const planned = plannedInstances(pipeline, env, new Masker()).map(({ key: _key, ...identity }) => identity);
  await store.create(shardKeys(run).instances, Buffer.from(JSON.stringify(planned)));
}

/** The fleet's matrix as one process's report gives it: each key's values in the order the instances meet them (the inventory's, not the waves'). */
export const matrixOf = (planned: readonly Planned[]) =>
  matrixUnion(planned.flatMap(({ matrix }) => Object.entries(matrix ?? {})));

export const readPlanned = (store: RunStore, run: string): Promise<Planned[] | undefined> =>
  readShardRecord(store, shardKeys(run).instances, z.array(Planned), "a sharded run's planned instances");
