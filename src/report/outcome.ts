// A report's outcome as its steps and waves say it, for a report read from outside (a job's
// report given to `report --merge`): its own `outcome` field is a claim that can only make it
// worse. Its steps decide by the rule every run's outcome follows (runner/result.ts runOutcome);
// what the field says when it is worse (a journal that could not be written fails a run whose
// steps all succeeded).
import { runOutcome } from '../runner/result.ts';
import type { Report } from './model.ts';

export function checkedOutcome(report: Pick<Report, 'outcome' | 'steps' | 'rollout'>): Report['outcome'] {
  if (report.outcome !== 'success') return report.outcome;
  return runOutcome(report.steps, report.rollout);
}

/** A sharded run's site still under way when read: failure once a step of it failed, else under-way (what has not ended is neither). */
export function underWayOutcome(report: Pick<Report, 'steps'>): Report['outcome'] {
  return report.steps.some((s) => s.outcome === 'failure' && !s.continuedOnError) ? 'failure' : 'under-way';
}
