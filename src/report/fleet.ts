// The whole fleet at a glance, for a merged report: a row per job's report (what it was limited
// to, its outcome and counts) and a row per instance no report covers. The terminal, the Markdown
// summary, the HTML report and JUnit all show these rows.
import { countsPhrase } from '../runner/result.ts';
import type { Report } from './model.ts';

export const NO_REPORT = 'no report';
export const NO_REPORT_NOTE = 'no report: its job died or never ran';

export interface FleetRow {
  /** What the job ran ("site=emea"), or its report's file for a job that ran every instance. */
  label: string;
  status: Report['outcome'] | typeof NO_REPORT;
  /** "3 step run(s): 3 succeeded", or the no-report note. */
  detail: string;
  durationMs: number | null;
  source: string | null;
}

export function fleetRows(report: Report): FleetRow[] {
  if (!report.merged) return [];
  return [
    ...report.merged.reports.map((r): FleetRow => ({
      label: r.limitedTo ?? r.source,
      status: r.outcome,
      detail: `${r.counts.total} step run(s): ${countsPhrase(r.counts)}`,
      durationMs: r.durationMs,
      source: r.source,
    })),
    ...report.merged.noReport.map((instance): FleetRow => ({
      label: instance,
      status: NO_REPORT,
      detail: NO_REPORT_NOTE,
      durationMs: null,
      source: null,
    })),
  ];
}

/** The fleet in one line: "3 job report(s), 1 instance without a report (site=prod)". */
export function fleetPhrase(report: Report): string | undefined {
  if (!report.merged) return undefined;
  const { reports, noReport } = report.merged;
  return `${reports.length} job report(s)${noReport.length ? `, ${noReport.length} instance(s) without a report (${noReport.join(', ')})` : ''}`;
}
