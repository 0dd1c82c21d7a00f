// A write that no window within the horizon admits: its need (expected, plus the margin) is longer
// than any opening of the windows it is under, or freezes cover them. Found before the run sends
// anything, so that a pipeline that can never run whole is refused at its step's line rather than
// half applied: the writes before it sent, then it failed WINDOW_CLOSED. An override an allowed
// identity gives admits any write: nothing is refused then.
import { formatDuration } from '../duration.ts';
import { UsageError } from '../errors.ts';
import type { Step } from '../pipeline/model.ts';
import { matchingRule } from '../schedule/override.ts';
import { nextFit } from '../schedule/schedule.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { expectedSource, judge } from './admission.ts';
import type { StepRun } from './result.ts';
import type { RunContext } from './run-context.ts';

/** Refuses the run (exit 2) when a write instance it will start can fit in no window within the horizon from now. */
export function refuseNeverFitting(ctx: RunContext, steps: readonly (readonly [Step, readonly StepRun[]])[]): void {
  const spec = ctx.pipeline.schedule;
  if (!spec) return;
  const override = ctx.deps.windowOverride;
  if (override && matchingRule(spec.overrideFreeze, override.identity)) return;
  const now = ctx.deps.now();
  // One search per schedule and need: a fleet's sites under one window share it.
  const searched = new Map<string, boolean>();
  for (const [step, runs] of steps)
    for (const run of runs) {
      if (ctx.resume?.carried.has(run.key)) continue;
      const judged = judge(spec, step, STEP_TYPES.get(step.uses)!, run, now, ctx.deps.history);
      if (!judged || judged.verdict.fits) continue;
      const { schedule, need, expected } = judged;
      const key = JSON.stringify([schedule.windows.map((w) => w.name), schedule.freezes.map((f) => f.name), need]);
      let fits = searched.get(key);
      if (fits === undefined) searched.set(key, (fits = nextFit(schedule, now, need) !== undefined));
      if (fits) continue;
      const { line, col } = step.position;
      throw new UsageError(
        'NO_WINDOW_FITS',
        `${ctx.pipeline.file}:${line}:${col}: step ${step.id ?? `${step.index + 1} (${step.uses})`} ("${ctx.masker.mask(run.name)}") needs ${formatDuration(need)} (${expectedSource(expected)} plus the margin) and no window within 400 days fits it: nothing was sent`,
        {
          hint: 'lengthen its window (duration:), or declare a shorter expected: if the write is shorter; a write no window admits would leave the run half applied',
        },
      );
    }
}
