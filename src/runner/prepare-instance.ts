// What the run and its plan (the dry run) both do before an instance calls anything: the scope it
// evaluates in, its condition, its inputs resolved, their secrets registered and checked against
// its type. One walk: the plan is the run's own preparation with earlier steps' outputs standing in
// as placeholders.
import { Placeholder, resolveDeep, truthy, type EvalScope } from '../expr/index.ts';
import type { Step } from '../pipeline/model.ts';
import { inputSchema, STEP_TYPES } from '../steps/registry.ts';
import { resolved, type TargetDef } from '../steps/types.ts';
import type { Masker } from './masker.ts';
import type { StepError } from './result.ts';
import { registerInputSecrets } from './declared-secrets.ts';

/** What an instance evaluates in: the run's contexts, the steps so far, its matrix values, the run's status. */
export interface InstanceWorld {
  base: Record<string, unknown>;
  steps: Record<string, unknown>;
  targets: Record<string, TargetDef>;
  status: { failed: boolean; cancelled: boolean };
  masker: Masker;
}

export function instanceScope(world: InstanceWorld, matrix: Readonly<Record<string, unknown>>): EvalScope {
  return {
    contexts: { ...world.base, steps: world.steps, targets: world.targets, matrix },
    status: { ...world.status },
  };
}

/** The instance's condition: whether it runs, or why it cannot be told (an expression that fails). */
export function conditionOf(step: Step, scope: EvalScope): { runs: boolean } | { failure: StepError } {
  try {
    return { runs: truthy(step.if.evaluate(scope)) };
  } catch (error) {
    return { failure: { code: 'EXPRESSION', message: `if: ${(error as Error).message}` } };
  }
}

/** `values`: the inputs as resolved, before the step type parsed them (the plan shows a call from them). */
export type ResolvedInputs =
  | { inputs: Record<string, unknown>; values: Record<string, unknown> }
  | { failure: StepError; values?: Record<string, unknown> };

/**
 * The step's inputs resolved in `scope`, their declared secrets registered with the masker, and
 * checked against the step type. `placeholders`: the plan's walk, where an earlier step's output
 * is a placeholder shown as its text (`<steps.find.outputs.key>`).
 */
export function resolveInputs(
  step: Step,
  scope: EvalScope,
  masker: Masker,
  options: { placeholders?: boolean } = {},
): ResolvedInputs {
  const type = STEP_TYPES.get(step.uses)!;
  let values: Record<string, unknown>;
  try {
    values = resolveDeep(step.with, scope) as Record<string, unknown>;
    if (options.placeholders) values = withPlaceholdersShown(values) as Record<string, unknown>;
  } catch (error) {
    return { failure: { code: 'EXPRESSION', message: masker.mask((error as Error).message) } };
  }
  registerInputSecrets(type, values, masker);
  const parsed = inputSchema(type, resolved).safeParse(values);
  if (parsed.success) return { inputs: parsed.data as Record<string, unknown>, values };
  const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'with'}: ${i.message}`).join('; ');
  return {
    failure: { code: 'INPUT_INVALID', message: masker.mask(`the inputs are not valid once resolved: ${detail}`) },
    values,
  };
}

function withPlaceholdersShown(value: unknown): unknown {
  if (value instanceof Placeholder) return value.toString();
  if (Array.isArray(value)) return value.map(withPlaceholdersShown);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPlaceholdersShown(v)]));
  }
  return value;
}
