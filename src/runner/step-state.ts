// A step's state in the `steps` context once its instances are done, and the run's status they
// leave: what the expressions of later steps read (steps.ID.outcome, outputs, instances, failures).
import type { Step } from '../pipeline/model.ts';
import type { Outcome, StepRun } from './result.ts';
import type { InstanceContext, RunContext } from './run-context.ts';

/**
 * The step in the `steps` context once its instances are done (only a step with an id is read).
 * `status: false`: a rollout's steps, whose failures the rollout itself weighs (rollout.ts).
 */
export function settle(ctx: RunContext, step: Step, instances: StepRun[], { status = true } = {}): void {
  const outcomes = instances.map((r) => r.outcome);
  const aggregate: Outcome = outcomes.includes('failure')
    ? 'failure'
    : outcomes.includes('cancelled')
      ? 'cancelled'
      : outcomes.length > 0 && outcomes.every((o) => o === 'skipped')
        ? 'skipped'
        : 'success';
  if (step.id !== undefined) {
    const single = !step.matrix && instances.length === 1 ? ctx.live.get(instances[0]!) : undefined;
    const each = instances.map((r): InstanceContext => ({
      matrix: r.matrix ?? {},
      outcome: r.outcome,
      outputs: ctx.live.get(r) ?? {},
    }));
    ctx.steps[step.id] = {
      outcome: aggregate,
      outputs: single ?? {},
      ...(step.matrix ? { instances: each, failures: each.filter((x) => x.outcome === 'failure') } : {}),
    };
  }
  if (status && instances.some((r) => r.outcome === 'failure' && !r.continuedOnError)) ctx.status.failed = true;
  if (ctx.deps.signal.aborted) ctx.status.cancelled = true;
}
