// The instances a command works on, computed once per pipeline and selection: each step's matrix
// combinations the selection keeps, each with its key. The run, its plan (plan, run --plan), a
// resume and the plan's waves all read this one set, where each expanded the matrix itself.
import type { Pipeline } from '../pipeline/model.ts';
import { canonicalSelection, expandMatrix, selects, type Combination, type Selection } from '../pipeline/selection.ts';
import { instanceKey, stepIdentities } from './resume.ts';

export interface SetInstance {
  /** Its matrix values ({} for a step without a matrix). */
  combination: Combination;
  /** Its identity across runs (resume.ts instanceKey). */
  key: string;
}

export interface InstanceSet {
  /** Each step's instances, by the step's index. */
  readonly steps: readonly (readonly SetInstance[])[];
  /** Every instance's key, with its step's index. */
  readonly keys: ReadonlyMap<string, { step: number }>;
}

const computed = new WeakMap<Pipeline, Map<string, InstanceSet>>();

/** The instances of `pipeline` that `selection` keeps: computed once, the same set for every later asker. */
export function instanceSet(pipeline: Pipeline, selection: Selection): InstanceSet {
  const bySelection = computed.get(pipeline) ?? new Map<string, InstanceSet>();
  computed.set(pipeline, bySelection);
  const id = JSON.stringify(canonicalSelection(selection));
  const known = bySelection.get(id);
  if (known) return known;
  const identities = stepIdentities(pipeline);
  const steps = pipeline.steps.map((step) =>
    expandMatrix(step.matrix)
      .filter((c) => selects(c, selection))
      .map((combination) => ({ combination, key: instanceKey(identities[step.index]!, step, combination) })),
  );
  const keys = new Map(steps.flatMap((list, step) => list.map((i) => [i.key, { step }] as const)));
  const set = { steps, keys };
  bySelection.set(id, set);
  return set;
}
