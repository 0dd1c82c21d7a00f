// A report's outcome as its steps and waves say it, for a report read from outside (a job's
// report given to `report --merge`): its own `outcome` field is a claim that can only make it
// worse. Its steps decide by the rule every run's outcome follows (runner/result.ts runOutcome);
// what the field says when it is worse (a journal that could not be written fails a run whose
// steps all succeeded).
import { runOutcome } from '../runner/result.ts';
import type { Report } from './model.ts';

export function checkedOutcome(
  report: Pick<Report, 'outcome' | 'steps' | 'rollout'> & Partial<Pick<Report, 'shard'>>,
): Report['outcome'] {
  if (report.outcome !== 'success') return report.outcome;
  // A sharded run's worker knows the whole rollout: another shard's failure within a wave's budget is not this job's
  // (its index's earlier attempts' are: its report holds those sites).
  const own = report.shard && new Set([...report.shard.sites, ...report.shard.endedEarlier]);
  const rollout =
    own && report.rollout
      ? {
          ...report.rollout,
          waves: report.rollout.waves.map((w) => ({ ...w, failed: w.failed.filter((v) => own.has(v)) })),
        }
      : report.rollout;
  return runOutcome(report.steps, rollout);
}

/** A sharded run's site still under way when read: failure once a step of it failed, else under-way (what has not ended is neither). */
export function underWayOutcome(report: Pick<Report, 'steps'>): Report['outcome'] {
  return report.steps.some((s) => s.outcome === 'failure' && !s.continuedOnError) ? 'failure' : 'under-way';
}
