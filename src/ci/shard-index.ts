// Where a worker of a sharded run finds its index (run --shard auto): the CI system that runs it as
// one of several parallel jobs (GitLab's parallel: N, CI_NODE_INDEX from 1), else a Kubernetes
// Indexed Job's pod (JOB_COMPLETION_INDEX from 0; its total is the manifest's). Nothing else in
// src/ reads these variables.
import { CI_SYSTEMS } from './detect.ts';
import type { Env, ShardIndexFound } from './system.ts';

export type FoundIndex = ShardIndexFound;

/**
 * The index the environment gives, or undefined when none does; `ambiguous` when two engines give
 * one (GitLab's and a Kubernetes Indexed Job's): neither is guessed, since a worker that took the
 * wrong one would run another shard's sites and leave its own to none.
 */
export function shardIndexOf(env: Env): FoundIndex | { ambiguous: string[] } | undefined {
  const found: FoundIndex[] = [];
  for (const system of CI_SYSTEMS) {
    const index = system.shardIndex?.(env);
    if (index) found.push(index);
  }
  const k8s = env.JOB_COMPLETION_INDEX;
  if (k8s !== undefined) {
    const index = /^[0-9]+$/.test(k8s) ? Number(k8s) : NaN;
    found.push({
      index,
      total: undefined,
      from: `JOB_COMPLETION_INDEX=${k8s}`,
      // The Job runs `completions` pods, indexed 0 to completions - 1: one past the shards is a Job of more.
      misfit: (run, shards) =>
        index >= shards
          ? {
              message: `JOB_COMPLETION_INDEX=${k8s} is past run ${run}'s ${shards} shards (an Indexed Job counts from 0: 0 to ${shards - 1}): the Job's completions exceed the run's ${shards} shards`,
              hint: `set the Job's completions to ${shards} (spec.completions, as enginectl shard --format k8s printed it)`,
            }
          : undefined,
    });
  }
  if (found.length > 1) return { ambiguous: found.map((f) => f.from) };
  return found[0];
}

/** Where --shard auto looks, for the help and the refusal. */
export const SHARD_INDEX_SOURCES =
  "CI_NODE_INDEX of GitLab's parallel:, JOB_COMPLETION_INDEX of a Kubernetes Indexed Job";
