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
