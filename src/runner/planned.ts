// The instances a run plans, by identity: each step's matrix combinations, each named as the run
// names it before anything runs (a name's expressions resolved, secrets masked). The runner makes
// its instances from these; a sharded run's plan (enginectl shard) keeps them, so that its merged
// report can list the instances a halt left not started, as one process's report does.
import type { Pipeline, Step } from '../pipeline/model.ts';
import { EVERY_INSTANCE, type Combination } from '../pipeline/selection.ts';
import type { PlannedInstance } from './instance.ts';
import { instanceSet } from './instance-set.ts';
import type { Masker } from './masker.ts';
import { instanceName } from './names.ts';
import { prepareRun, serverName, type Env } from './scope.ts';

/** One instance's identity: `contexts` the run's (vars, env, secrets, targets, the steps so far). */
export function instanceIdentity(
  step: Step,
  combination: Combination,
  key: string,
  contexts: Record<string, unknown>,
  masker: Masker,
): PlannedInstance {
  return {
    key,
    step: step.index,
    id: step.id,
    name: instanceName(step, combination, contexts, masker),
    uses: step.uses,
    matrix: step.matrix ? { ...combination } : undefined,
    server: serverName(step, combination, contexts),
  };
}

/** Every instance of the pipeline, in file order, as a run of it would plan them before its first step. */
export function plannedInstances(pipeline: Pipeline, env: Env, masker: Masker): PlannedInstance[] {
  const { contexts: base, targets } = prepareRun(pipeline, env, masker);
  const set = instanceSet(pipeline, EVERY_INSTANCE);
  const contexts = { ...base, steps: Object.create(null) as Record<string, unknown>, targets };
  return pipeline.steps.flatMap((step) =>
    set.steps[step.index]!.map(({ combination, key }) => instanceIdentity(step, combination, key, contexts, masker)),
  );
}
