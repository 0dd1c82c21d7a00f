// The dry run, for `plan`, `run --dry-run` and the actions' dry-run input: every call the
// pipeline would make, resolved as far as possible, secrets masked. Makes no request.
import type { Selection } from '../pipeline/selection.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { renderPlan } from '../report/plan-text.ts';
import { Masker } from '../runner/masker.ts';
import { planPipeline } from '../runner/plan.ts';
import type { Env } from '../runner/scope.ts';

export interface DryRun {
  /** The pipeline's name, resolved. */
  name: string;
  /** The calls, one step instance after another. */
  text: string;
}

export function dryRun(pipeline: Pipeline, env: Env, options: { selection?: Selection; masker?: Masker } = {}): DryRun {
  const masker = options.masker ?? new Masker();
  const plan = planPipeline(pipeline, env, { selection: options.selection, masker });
  return { name: plan.name, text: masker.mask(renderPlan(plan.steps)) };
}
