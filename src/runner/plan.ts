// The dry run: every call the pipeline would make, resolved as far as possible before anything
// runs, secrets masked. Each instance is prepared as the run prepares it (prepare-instance.ts);
// outputs of earlier steps are shown as placeholders.
import { Placeholder } from '../expr/index.ts';
import { formatDuration } from '../duration.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { PlannedCall } from '../steps/types.ts';
import { Masker } from './masker.ts';
import { checkSelection, EVERY_INSTANCE, expandMatrix, selects, type Selection } from '../pipeline/selection.ts';
import { instanceName } from './names.ts';
import { conditionOf, instanceScope, resolveInputs, type InstanceWorld } from './prepare-instance.ts';
import { prepareRun, serverName, type Env } from './scope.ts';

export interface PlannedStep {
  position: string;
  name: string;
  uses: string;
  server: string | undefined;
  /** The condition, when it is not the default success(). */
  condition: string | undefined;
  /** False when the condition is false even if every step before succeeds. */
  runs: boolean;
  calls: PlannedCall[];
  /** Why the calls could not be resolved fully. */
  note: string | undefined;
  /** How the step runs, when it is not the default: a gate's wait, a matrix's max-parallel and fail-fast. */
  how: string[];
}

export interface Plan {
  /** The pipeline's name, resolved. */
  name: string;
  steps: PlannedStep[];
}

export function planPipeline(pipeline: Pipeline, env: Env, options: { selection?: Selection; masker?: Masker } = {}): Plan {
  const selection = options.selection ?? EVERY_INSTANCE;
  checkSelection(pipeline, selection);
  const masker = options.masker ?? new Masker();
  const { name, contexts: base, targets } = prepareRun(pipeline, env, masker);
  const steps: Record<string, { outcome: string; outputs: Record<string, Placeholder>; instances?: Placeholder; failures?: Placeholder }> = Object.create(null);
  const world: InstanceWorld = { base, steps, targets, status: { failed: false, cancelled: false }, masker };
  const out: PlannedStep[] = [];
  for (const step of pipeline.steps) {
    const type = STEP_TYPES.get(step.uses)!;
    for (const combo of expandMatrix(step.matrix).filter((c) => selects(c, selection))) {
      // The run's own preparation of the instance (prepare-instance.ts), earlier outputs as placeholders.
      const scope = instanceScope(world, combo);
      const condition = conditionOf(step, scope);
      const prepared = resolveInputs(step, scope, masker, { placeholders: true });
      let note = 'failure' in condition ? `resolved at run time: ${condition.failure.message}` : undefined;
      let calls: PlannedCall[] = [];
      try {
        if ('inputs' in prepared) calls = type.plan(prepared.inputs as never, targets);
        else if (prepared.values) {
          calls = type.plan(prepared.values as never, targets);
          if (JSON.stringify(prepared.values).includes('<steps.')) note ??= 'some inputs come from earlier steps\' outputs, known only at run time';
        } else note ??= `resolved at run time: ${prepared.failure.message}`;
      } catch (error) {
        note ??= `resolved at run time: ${(error as Error).message}`;
      }
      const runs = 'runs' in condition ? condition.runs : true;
      out.push({
        position: `[${step.index + 1}/${pipeline.steps.length}]`,
        name: instanceName(step, combo, { ...base, steps, targets }, masker),
        uses: step.uses,
        server: serverName(step, combo, base),
        condition: step.if.source === 'success()' ? undefined : step.if.source,
        runs,
        calls: masker.maskValue(calls),
        note: note && masker.mask(note),
        how: howItRuns(step, prepared.values),
      });
    }
    if (step.id !== undefined) {
      const outputs: Record<string, Placeholder> = {};
      for (const name of type.outputs) outputs[name] = new Placeholder(`steps.${step.id}.outputs.${name}`);
      steps[step.id] = {
        outcome: 'success',
        outputs: step.matrix ? {} : outputs,
        ...(step.matrix ? { instances: new Placeholder(`steps.${step.id}.instances`), failures: new Placeholder(`steps.${step.id}.failures`) } : {}),
      };
    }
  }
  return { name, steps: out };
}

/** A gate's wait, a matrix's max-parallel and fail-fast, a timeout and retry: shown by plan. */
function howItRuns(step: Pipeline['steps'][number], inputs: unknown): string[] {
  const how: string[] = [];
  const wait = (inputs as { wait?: { timeout?: unknown; interval?: unknown } } | null)?.wait;
  if (wait && typeof wait === 'object') how.push(`wait: up to ${String(wait.timeout)}, a check every ${String(wait.interval ?? '2m')}`);
  if (step.matrix) how.push(`matrix: max-parallel ${step.maxParallel}, fail-fast ${step.failFast}`);
  if (step.timeoutMs !== undefined) how.push(`timeout: ${formatDuration(step.timeoutMs)}`);
  if (step.retry) how.push(`retry: ${step.retry.attempts} attempts, ${formatDuration(step.retry.delayMs)} apart (x${step.retry.backoff})`);
  if (step.continueOnError) how.push('continue-on-error: a failure does not stop the pipeline');
  return how;
}
