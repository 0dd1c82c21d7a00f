// A report's outcome as its steps and waves say it, for a report read from outside (a job's
// report given to `report --merge`): its own `outcome` field is a claim that can only make it
// worse. A failed step continue-on-error did not let pass, a rollout that halted or had a value
// fail, is a failure; a cancelled step, a cancelled run; what the field says when it is worse
// (a journal that could not be written fails a run whose steps all succeeded).
import type { Report } from './model.ts';

export function checkedOutcome(report: Pick<Report, 'outcome' | 'steps' | 'rollout'>): Report['outcome'] {
  if (report.outcome !== 'success') return report.outcome;
  // An analysis round may fail and its analysis hold: what it decided is in the rollout's waves.
  const steps = report.steps.filter((s) => s.round === null);
  const rollout = report.rollout;
  if (steps.some((s) => s.outcome === 'failure' && !s.continuedOnError)) return 'failure';
  if (rollout && (rollout.halted || rollout.waves.some((w) => w.failed.length > 0))) return 'failure';
  if (steps.some((s) => s.outcome === 'cancelled')) return 'cancelled';
  return 'success';
}
