// What a resumed run takes from its journal: the instances not to run again, with the outputs a
// later step may read. The key of an instance is stable across runs of the same file.
import type { Pipeline, Step } from '../pipeline/model.ts';
import { describeCombination, expandMatrix, onlyFilter, type Combination } from './matrix.ts';
import type { StepRun } from './result.ts';

export interface Carried {
  /** The outputs as they were (masked ones cannot come back; see app/resume.ts). */
  outputs: Record<string, unknown>;
}

export interface ResumePlan {
  /** Instances done in an earlier run, by key. */
  carried: ReadonlyMap<string, Carried>;
}

export function instanceKey(step: Step, combination: Combination): string {
  return step.matrix ? `${step.index} ${JSON.stringify(combination)}` : String(step.index);
}

/** An instance the run plans to run, for a report of a run that never reached it. */
export interface PlannedInstance {
  key: string;
  step: number;
  id: string | undefined;
  /** As written (a name with expressions is resolved only when the instance runs). */
  name: string;
  uses: string;
  matrix: StepRun['matrix'];
  server: string | undefined;
}

export function plannedInstances(pipeline: Pipeline, only: Readonly<Record<string, string>>): PlannedInstance[] {
  return pipeline.steps.flatMap((step) =>
    expandMatrix(step.matrix)
      .filter((c) => onlyFilter(c, only))
      .map((c) => ({
        key: instanceKey(step, c),
        step: step.index,
        id: step.id,
        name: `${String(step.name)}${step.matrix ? describeCombination(c) : ''}`,
        uses: step.uses,
        matrix: step.matrix ? c : undefined,
        server: step.server === undefined ? undefined : String(step.server),
      })),
  );
}
