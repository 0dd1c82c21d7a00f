// Where a worker of a sharded run finds its index (run --shard auto): the CI system that runs it as
// one of several parallel jobs (GitLab's parallel: N, CI_NODE_INDEX from 1), else a Kubernetes
// Indexed Job's pod (JOB_COMPLETION_INDEX from 0; its total is the manifest's). Nothing else in
// src/ reads these variables.
import { CI_SYSTEMS } from './detect.ts';
import type { Env } from './system.ts';

export interface FoundIndex {
  /** 0-based; NaN when the variable is not a number. */
  index: number;
  total: number | undefined;
  /** What it was read from, for a person. */
  from: string;
}

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
  if (k8s !== undefined)
    found.push({
      index: /^[0-9]+$/.test(k8s) ? Number(k8s) : NaN,
      total: undefined,
      from: `JOB_COMPLETION_INDEX=${k8s}`,
    });
  if (found.length > 1) return { ambiguous: found.map((f) => f.from) };
  return found[0];
}

/** Where --shard auto looks, for the help and the refusal. */
export const SHARD_INDEX_SOURCES =
  "CI_NODE_INDEX of GitLab's parallel:, JOB_COMPLETION_INDEX of a Kubernetes Indexed Job";
