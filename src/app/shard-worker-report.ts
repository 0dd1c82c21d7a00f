// A sharded run's worker's own report (run --shard I/N --report-json F): the sites it ran, merged,
// and which worker of which run it is, how it ended and the sites it left to another attempt; a
// retried index's, the sites its earlier attempts ended too, marked so (shard-earlier.ts), so that
// report --merge --expect-shards N can put the workers' files together without the store. A
// worker that ran no site (its static shard is empty, the queue was drained, it parked at once)
// writes one too: a report that is missing then means a worker that is missing.
import { buildReport, reportParked, type Report } from '../report/model.ts';
import type { Park } from '../runner/rollout-result.ts';
import { mergeReports } from '../report/merge.ts';
import type { Manifest } from '../shard/manifest.ts';
import type { WorkerEnd, WorkerResult } from '../shard/worker.ts';
import { barrierWaits, windowPark } from '../shard/barrier-reason.ts';
import { fleetOptions, placeInWaves } from './shard-plan.ts';

/** A site's report, from the run this worker ran (or resumed) it as. */
export interface SiteReport {
  site: string;
  siteRun: string;
  report: Report;
}

export interface WorkerReportInput {
  manifest: Manifest;
  /** 0-based. */
  index: number;
  /** The pipeline's name, resolved, and file: a worker that ran no site has no site report to take them from. */
  pipeline: { name: string; file: string };
  result: WorkerResult;
  /** Which attempt of its index this worker is, from 1. */
  attempt: number;
  sites: readonly SiteReport[];
  /** The sites earlier attempts of its index ended (not run by this one), as they recorded them: shard-earlier.ts. */
  earlier?: readonly SiteReport[] | undefined;
  startedAt: number;
  durationMs: number;
}

export function workerReport(input: WorkerReportInput): Report {
  const { manifest, result } = input;
  const earlier = input.earlier ?? [];
  const row = (s: SiteReport) => ({ source: `${manifest.over} ${s.site}: run ${s.siteRun}`, report: s.report });
  // The sites its index's earlier attempts ended first (they ran before), each row saying so.
  const rows = [...earlier.map((s) => ({ ...row(s), endedEarlier: true })), ...input.sites.map(row)];
  const merged = rows.length
    ? mergeReports(
        rows,
        fleetOptions(
          manifest,
          [...earlier, ...input.sites].map((s) => s.site),
        ),
      )
    : emptyReport(input);
  placeInWaves(merged.steps, manifest);
  const end = result.end.outcome;
  return {
    ...merged,
    // This attempt's own time, not its earlier sites' (a merge tells attempts of an index apart by it).
    startedAt: new Date(input.startedAt).toISOString(),
    durationMs: input.durationMs,
    // A halted rollout fails every worker (exit 1); one cut short is cancelled unless a site failed.
    outcome:
      end === 'halted'
        ? 'failure'
        : (end === 'lost' || end === 'cancelled') && merged.outcome !== 'failure'
          ? 'cancelled'
          : merged.outcome,
    // Parked at its wave's barrier (exit 75): what it waits for, as a parked run says it.
    ...(result.end.outcome === 'parked' ? { parked: reportParked(barrierParkOf(result.end, manifest.over)) } : {}),
    shard: {
      run: manifest.run,
      index: input.index + 1,
      of: manifest.shards,
      over: manifest.over,
      end,
      sites: [...new Set(result.ran.map((r) => r.site))],
      // Started and not ended here: its end was not recorded (SiteEnd 'cancelled': lost or interrupted).
      // A site whose run parked for its window is left too: the index run again goes on with it.
      left: result.ran.filter((r) => r.outcome === 'cancelled' || r.outcome === 'parked').map((r) => r.site),
      endedEarlier: earlier.map((s) => s.site),
      attempt: input.attempt,
      assign: manifest.assign,
    },
  };
}

/** A worker's report of no site: the report of a run of no step, over the fleet's sites. */
function emptyReport(input: WorkerReportInput): Report {
  const report = buildReport({
    file: input.pipeline.file,
    name: input.pipeline.name,
    outcome: 'success',
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    steps: [],
    matrix: fleetOptions(input.manifest, []).matrix,
    pipelineSha256: input.manifest.sha256,
  });
  // A worker's report is its sites' reports merged: of none, here.
  return { ...report, merged: { reports: [], noReport: [], underWay: null } };
}

/** A worker parked at its wave's barrier (or, elected, on the wave's bake), as a park: what it waits for is its reason, and at the barrier each site not ended (no decision, no evidence of its own). */
export const barrierParkOf = (end: Extract<WorkerEnd, { outcome: 'parked' }>, over: string): Park =>
  end.windows
    ? windowPark(end.wave, over, end.windows)
    : end.until !== undefined
      ? { wave: end.wave, for: 'bake', since: end.since, until: end.until, reason: end.waitingFor, waits: [] }
      : // Each site of the wave not ended a wait of its own: the reason names five, the JSON report every one.
        {
          wave: end.wave,
          for: 'barrier',
          since: end.since,
          reason: end.waitingFor,
          waits: barrierWaits(over, end.open ?? []),
        };

/**
 * A worker stopped by a fault after it sent something (its store refused a site's record), or at
 * its end (its index's earlier failures unread): the fault, the report of the sites it ran, which
 * is written all the same before the fault is said, and what the fault stopped, in words.
 */
export class WorkerStopped extends Error {
  constructor(
    readonly fault: unknown,
    readonly report: Report,
    readonly stopped = 'stopped before its next call',
  ) {
    super(fault instanceof Error ? fault.message : String(fault));
  }
}
