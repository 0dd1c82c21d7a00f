// The jobs of a fleet (report --merge of their files) whose runs parked (exit 75: a write waiting
// for its window, a bake, an operator's decision): each job's row says parked, and so does the
// merged report, as a parked run's own report does, never "success". A sharded run's workers are
// not among them: their rollout says where the run waits (merge-shards.ts).
import { describeSelection } from '../pipeline/selection.ts';
import type { Report } from './model.ts';

type Parked = NonNullable<Report['parked']>;

/** What a job's report says it waits for, or null: a sharded run's worker's is its rollout's. */
export const jobParked = (report: Report): string | null => (report.shard ? null : (report.parked?.reason ?? null));

/**
 * The jobs' parks as one: a single job's as it is; several, each reason named by its job (what the
 * first waits for, and at its wave, or a decision, at the wave of the first job waiting for one,
 * when any waits for one), from the earliest wait, until the first of them may go on (null when
 * one waits for no time: a decision).
 */
export function jobsParked(jobs: readonly { source: string; report: Report }[]): Parked | null {
  const parks = jobs.flatMap(({ source, report }) =>
    jobParked(report) === null ? [] : [{ job: jobName(report) ?? source, park: report.parked! }],
  );
  if (parks.length <= 1) return parks[0]?.park ?? null;
  // A decision, which no time brings, is what the fleet waits for when any job waits for one: at
  // the wave of the first job that waits for one, not at another job's bake or window.
  const first = (parks.find((p) => p.park.for === 'decision') ?? parks[0]!).park;
  const untils = parks.map((p) => p.park.until);
  const earliest = (times: string[]) => times.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a));
  return {
    wave: first.wave,
    for: first.for,
    since: earliest(parks.map((p) => p.park.since)),
    until: untils.every((u) => u !== null) ? earliest(untils as string[]) : null,
    reason: `${parks.length} jobs parked: ${parks.map((p) => `${p.job}: ${p.park.reason}`).join('; ')}`,
    write: null,
    waits: parks.flatMap((p) => p.park.waits),
  };
}

const jobName = (report: Report) => (report.selection ? describeSelection(report.selection) : undefined);
