// What a resumed run takes from its journal, and how an instance is known across runs: by its
// identity (the step's id, or a hash of what the step says, and its matrix values), never by its
// position in the file, so inserting or moving a step never makes one step stand for another.
import { createHash } from 'node:crypto';
import type { Pipeline, Step } from '../pipeline/model.ts';
import type { Combination } from '../pipeline/selection.ts';
import type { InDoubtCall } from './instance.ts';
import type { Decision, StepRun, WaveResult } from './result.ts';
import type { OperatorDecision, Park } from './rollout-result.ts';

export interface Carried {
  /** The instance as it ended in an earlier run, or as the operator's decision leaves it. */
  run: StepRun;
  /** Its outputs as they were (masked ones cannot come back; see journal/resume.ts). */
  outputs: Record<string, unknown>;
  /** A digest of its inputs then (secrets masked), when the journal has one. */
  inputs: string | undefined;
  /** Where its last start stands in the journal's order (a record's place): a failure carried is compared with the parks by it. */
  startedIn?: number | undefined;
}

export interface ResumePlan {
  /** Instances done in an earlier run (or decided skip), by identity: not run again. */
  carried: ReadonlyMap<string, Carried>;
  /** Instances sent again by the operator's decision (--in-doubt retry), by identity. */
  retried: ReadonlyMap<string, Decision>;
  /** The call in doubt each of those is about: kept on an instance its window does not admit. */
  doubts?: ReadonlyMap<string, InDoubtCall>;
  /** The digest of an instance's resolved inputs (masked), as the journal keeps it. */
  digest(run: StepRun): string;
  /** The rollout's waves whose analysis passed in the journal's last run, by wave number: not repeated when none of their values runs again. */
  analysed?: ReadonlyMap<
    number,
    { values: readonly string[]; failed?: readonly string[]; analysis: NonNullable<WaveResult['analysis']> }
  >;
  /** run --continue: where the journal's last run parked (a bake goes on from its start), and the operator's decisions since. */
  parked?: { park: Park; decided: readonly OperatorDecision[] } | undefined;
  /** Every decision of the operator's the journal holds, in order (those with a timeout once in effect): a wave the run went past keeps its word. */
  decided?: readonly OperatorDecision[] | undefined;
  /** The parks of the journal's release, in order: what each waited for, and the decisions made while it stood, each with its record's place in the journal (`seqOf`). */
  parks?:
    | readonly { park: Park; decided: readonly OperatorDecision[]; seqOf?: ReadonlyMap<OperatorDecision, number> }[]
    | undefined;
}

/** A hash of what a step without an id says: its type, inputs, server and matrix keys, as written. */
function contentHash(step: Step): string {
  const said = JSON.stringify([step.uses, step.with, step.server ?? null, Object.keys(step.matrix ?? {})]);
  return createHash('sha256').update(said).digest('hex').slice(0, 12);
}

/**
 * Each step's identity: `id:ID`, or `#HASH` of its content (`#HASH.2` for the second step with
 * the same content). Stable when steps are inserted, moved or renamed.
 */
export function stepIdentities(pipeline: Pipeline): string[] {
  const seen = new Map<string, number>();
  return pipeline.steps.map((step) => {
    if (step.id !== undefined) return `id:${step.id}`;
    const base = `#${contentHash(step)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}.${n}`;
  });
}

/** An instance's identity: its step's, and its matrix values (keys in order). */
export function instanceKey(identity: string, step: Step, combination: Combination): string {
  if (!step.matrix) return identity;
  const values = Object.keys(combination)
    .sort()
    .map((k) => [k, combination[k]]);
  return `${identity} ${JSON.stringify(Object.fromEntries(values))}`;
}
