// The reports of a fleet's jobs (one per site, `run --only site=X`) merged into one report of the
// whole fleet: every instance once, in the order one run would have listed it; each job's report
// summarised; the matrix values of the fleet that no report holds an instance of listed as "no
// report" (a job that died or never ran), which fails the fleet: what a report covers is what it
// holds, never what its selection says. Reports of another pipeline (another hash of the files and
// --var values, or another fleet's matrix) are refused unless forced, as is an instance two
// reports both claim. Each job's outcome and counts come from its steps (outcome.ts).
import { UsageError } from '../errors.ts';
import { describeSelection, type MatrixValue } from '../pipeline/selection.ts';
import { matrixUnion } from './matrix-union.ts';
import { countSteps, runOutcome } from '../runner/result.ts';
import { REPORT_VERSION, reportParked, type Report, type ReportStep } from './model.ts';
import { VERSION } from '../version.ts';
import { CLI_WAYS } from '../ways-on.ts';
import { checkedOutcome, underWayOutcome } from './outcome.ts';
import { checkOverlap, checkSamePipeline, type MergeCheckOptions } from './merge-check.ts';
import { jobParked, jobsParked } from './merge-parked.ts';
import {
  endedEarlierIn,
  leftBy,
  missingShards,
  shardLabel,
  shardRollout,
  supersededAttempt,
  unstartedAfter,
  workerLease,
} from './merge-shards.ts';

export interface ReportShard {
  /** Where it was read from, as given. */
  source: string;
  report: Report;
  /** A sharded run's site still under way when read: who holds it (its steps not ended are UNDER_WAY). */
  underWay?: NonNullable<Report['merged']>['reports'][number]['underWay'] | undefined;
  /** A sharded run's worker's report of a site an earlier attempt of its index ended (not run by that worker). */
  endedEarlier?: boolean | undefined;
}

export interface MergeOptions extends MergeCheckOptions {
  /** The fleet's matrix, when the reports each hold a part of it (a sharded run's sites): its order, instead of theirs. */
  matrix?: Report['matrix'] | undefined;
  /** The values of one matrix key the merged reports are to cover (a shard's sites): others are not "no report". */
  covers?: { key: string; values: readonly string[] } | undefined;
  /** The reports are the workers' of a sharded run of this many shards: each shard no report is from fails it. */
  expectShards?: number | undefined;
  /** Instances no report holds, listed as they are among the rest (a sharded rollout's halt left them not started). */
  listed?: readonly ReportStep[] | undefined;
  /** Instances listed after all the others, in their order (a sharded rollout's analysis rounds, as one process lists them). */
  after?: readonly ReportStep[] | undefined;
  /** With no report to merge (a sharded run none of whose sites has a step in the store yet): the pipeline and when the run was planned. */
  empty?: { pipeline: Report['pipeline']; startedAt: number } | undefined;
}

export function mergeReports(shards: readonly ReportShard[], options: MergeOptions = {}): Report {
  if (shards.length === 0 && !options.empty)
    throw new UsageError('BAD_ARGUMENTS', 'report --merge: no report to merge', {
      hint: 'name the JSON reports (or journals) of the jobs: enginectl report --merge reports/*.json',
    });
  checkSamePipeline(shards, options);
  const missing = missingShards(shards, options.expectShards, (options.ways ?? CLI_WAYS).merging);
  const first = shards[0]?.report;
  const matrix = options.matrix ?? fleetMatrix(shards);
  const kept = mergeSteps(shards, matrix, options);
  const steps = [...kept.map((k) => k.step), ...(options.after ?? [])];
  // A sharded run's workers' reports: the rollout as the one that knew the most tells it.
  const rollout = shardRollout(shards);
  const unstarted = unstartedAfter(rollout, shards);
  const noReport = [
    ...uncovered(matrix, shards, options.covers).filter(
      (v) => !rollout || !v.startsWith(`${rollout.over}=`) || !unstarted.has(v.slice(rollout.over.length + 1)),
    ),
    ...missing,
  ];
  const starts = shards.map((s) => Date.parse(s.report.startedAt));
  const start = first ? Math.min(...starts) : options.empty!.startedAt;
  let end = first ? Math.max(...shards.map((s, i) => starts[i]! + s.report.durationMs)) : start;
  // The analysis rounds run after their wave's sites: the run lasts until the last of them ends.
  for (const step of options.after ?? [])
    if (step.startedAt !== null && step.durationMs !== null)
      end = Math.max(end, Date.parse(step.startedAt) + step.durationMs);
  // Each job's outcome and counts from its steps: a report's own fields are only claims. A site under
  // way is told by what of it ended: a step not ended yet is neither cancelled nor failed.
  const outcomes = shards.map((s) => (s.underWay ? underWayOutcome(s.report) : checkedOutcome(s.report)));
  // For the fleet, a worker's attempt cut short and taken up by another counts as what is kept of it.
  const counted = shards.map((s, i) =>
    supersededAttempt(s, shards, kept)
      ? runOutcome(kept.filter((k) => k.report === s.report).map((k) => k.step))
      : outcomes[i]!,
  );
  const outcomeOf = (of: readonly Report['outcome'][]): Report['outcome'] =>
    noReport.length > 0 || rollout?.halted
      ? 'failure'
      : of.includes('cancelled')
        ? 'cancelled'
        : of.includes('failure')
          ? 'failure'
          : // A report read under way (a sharded run's, given again as a file) is no run's result.
            of.includes('under-way')
            ? 'under-way'
            : 'success';
  const outcome = outcomeOf(counted);
  // The jobs that did not park: a job parked for a decision failed (the write decided on), which is its park's, not another's.
  const others = outcomeOf(counted.filter((_, i) => jobParked(shards[i]!.report) === null));
  return {
    reportVersion: REPORT_VERSION,
    // A rollout is one job's (or a sharded run's, its workers' word): the operator's decisions are each job's, kept.
    rollout,
    decisions: shards.flatMap((s) => s.report.decisions ?? []),
    resumedFrom: null,
    lease: null,
    // A sharded run's park is its rollout's; a fleet's jobs' (report --merge FILE...), theirs, when
    // nothing else ended the fleet (another job failed: failure, its parked jobs each a row saying so).
    parked: rollout?.parked
      ? reportParked(rollout.parked)
      : options.covers || others !== 'success'
        ? null
        : jobsParked(shards),
    // What wrote this report: the enginectl that merged it, whatever wrote the jobs'.
    tool: { name: 'enginectl', version: VERSION },
    pipeline: first?.pipeline ?? options.empty!.pipeline,
    outcome,
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    counts: countSteps(steps),
    selection: null,
    matrix,
    shard: null,
    merged: {
      reports: shards.map(({ source, report }, i) => ({
        source,
        limitedTo: shardLabel(report) ?? (report.selection ? (describeSelection(report.selection) ?? null) : null),
        outcome: outcomes[i]!,
        startedAt: report.startedAt,
        durationMs: report.durationMs,
        counts: countSteps(report.steps),
        underWay: shards[i]!.underWay ?? null,
        parked: jobParked(report),
        lease: report.lease ?? workerLease(report),
        resumedFrom: report.resumedFrom ?? null,
        endedEarlier: shards[i]!.endedEarlier ?? false,
      })),
      noReport,
      underWay: null,
    },
    steps,
  };
}

/** The fleet's matrix: each key's values, from every report (they agree for one pipeline). */
const fleetMatrix = (shards: readonly ReportShard[]): Report['matrix'] => matrixUnion(matrixPairs(shards));

/** Each report's matrix values as (key, value), one at a time (the workers of a fleet of 10,000 sites each list them all). */
function* matrixPairs(shards: readonly ReportShard[]): Generator<readonly [string, MatrixValue]> {
  for (const { report } of shards)
    for (const [key, values] of Object.entries(report.matrix)) for (const v of values) yield [key, v];
}

/**
 * Every instance once, by step and then in matrix order. A step without a matrix (or over other
 * keys than the jobs' selections) runs in every job: it is kept once, as the job where it went
 * worst saw it. An instance of a site a sharded run's worker left is the resuming attempt's (when
 * both left it, the later one's); one a retried worker's report holds as an earlier attempt of its
 * index ended it (the same records), the report of the attempt that ran it, when given.
 */
function mergeSteps(shards: readonly ReportShard[], matrix: Report['matrix'], options: MergeOptions): Kept[] {
  const [listed, jobs] = [options.listed ?? [], options.covers === undefined];
  const byKey = new Map<string, Kept & { report: Report }>();
  for (const { source, report } of shards) {
    for (const step of report.steps) {
      const key = keyOf(step);
      const seen = byKey.get(key);
      if (!seen) {
        byKey.set(key, { step, source, report });
        continue;
      }
      const [leftHere, leftThere] = [leftBy(report, step), leftBy(seen.report, step)];
      if (leftHere || leftThere) {
        // The attempt that resumed it keeps it; when both left it, the later one.
        const later = Date.parse(report.startedAt) >= Date.parse(seen.report.startedAt);
        if (!leftHere || (leftThere && later)) byKey.set(key, { step, source, report });
      } else if (endedEarlierIn(report, step) || endedEarlierIn(seen.report, step)) {
        // A site a retried worker's report holds as its earlier attempt ended it: that attempt's report, when given, keeps it.
        if (!endedEarlierIn(report, step)) byKey.set(key, { step, source, report });
      } else {
        checkOverlap({ source: seen.source, report: seen.report }, { source, report }, step, jobs, options.ways);
        if (severity(step) > severity(seen.step)) byKey.set(key, { step, source, report });
      }
    }
  }
  const all: Kept[] = [
    ...byKey.values(),
    ...listed
      .filter((step) => !byKey.has(keyOf(step)))
      .map((step) => ({ step, source: 'the plan', report: undefined })),
  ];
  // Each value's place in its key's list, looked up (a fleet's thousands of sites), each instance's places once.
  const places = new Map(
    Object.entries(matrix).map(([k, values]) => {
      const at = new Map<string, number>();
      values.forEach((v, i) => at.has(String(v)) || at.set(String(v), i));
      return [k, at] as const;
    }),
  );
  const position = (step: ReportStep) =>
    Object.entries(step.matrix ?? {}).map(([k, v]) => places.get(k)?.get(String(v)) ?? -1);
  // An analysis round after the other instances, by its wave and round, as one run lists them.
  const order = (s: ReportStep) => (s.round === null ? [0, 0, 0] : [1, s.wave ?? 0, s.round]);
  const kept = all.map((k) => ({ k, at: [...order(k.step), k.step.step, ...position(k.step)] }));
  return kept.sort((a, b) => compareLists(a.at, b.at)).map((x) => x.k);
}

/** An instance's identity: its step and matrix values, and an analysis round's wave and round (it runs the gate again). */
const keyOf = (step: ReportStep) =>
  `${step.step}:${JSON.stringify(step.matrix)}${step.round === null ? '' : `:${step.wave}:${step.round}`}`;

/** An instance kept, and the report it is from (none for one the merge was given to list). */
interface Kept {
  step: ReportStep;
  source: string;
  report: Report | undefined;
}

const SEVERITY: Record<ReportStep['outcome'], number> = { success: 0, skipped: 1, cancelled: 2, failure: 3 };

function severity(step: ReportStep): number {
  return SEVERITY[step.outcome] + (step.inDoubt ? 4 : 0);
}

function compareLists(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) - (b[i] ?? -1);
  return 0;
}

/**
 * The values of the fleet's matrix keys that no report holds an instance of, as KEY=VALUE: a
 * report covers the instances it has, whatever its selection says (a whole run of a smaller
 * fleet, an edited report).
 */
function uncovered(matrix: Report['matrix'], shards: readonly ReportShard[], covers: MergeOptions['covers']): string[] {
  if (covers) matrix = { [covers.key]: [...covers.values] };
  const held = new Set<string>();
  for (const { report } of shards)
    for (const step of report.steps)
      for (const [k, v] of Object.entries(step.matrix ?? {})) held.add(JSON.stringify([k, String(v)]));
  return Object.entries(matrix).flatMap(([key, values]) =>
    values.filter((v) => !held.has(JSON.stringify([key, String(v)]))).map((v) => `${key}=${String(v)}`),
  );
}
