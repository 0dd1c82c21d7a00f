// The whole fleet at a glance, for a merged report: a row per job's report (what it was limited
// to, its outcome and counts) and a row per instance no report covers. The terminal, the Markdown
// summary, the HTML report and JUnit all show these rows. And what makes a run a fleet for the
// HTML grid and the short summary: the matrix key of its sites, with many values.
import { countsPhrase } from '../runner/result.ts';
import type { Report } from './model.ts';

export const NO_REPORT = 'no report';
export const NO_REPORT_NOTE = 'no report: its job died or never ran';
/** What a "no report" row says: a shard no worker registered in a run read under way may still start. */
export const noReportNote = (instance: string) =>
  instance.endsWith('(no worker started yet)') ? 'no report yet: no worker of it has started' : NO_REPORT_NOTE;
export const UNDER_WAY = 'under way';
/** What a worker's row of a site its index's earlier attempt ended says (a retried job's report). */
const ENDED_EARLIER = 'ended by an earlier attempt of this shard, not run by this one';

export interface FleetRow {
  /** What the job ran ("site=emea"), or its report's file for a job that ran every instance. */
  label: string;
  /** "in doubt": the job's run was a success that left a write in doubt no one decided (its job exited 1). */
  status: Exclude<Report['outcome'], 'under-way'> | typeof NO_REPORT | typeof UNDER_WAY | 'in doubt' | 'parked';
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
      // A job whose run parked is parked, as its own report heads it, whatever ran before.
      status:
        r.outcome === 'under-way'
          ? UNDER_WAY
          : r.parked !== null
            ? 'parked'
            : r.outcome === 'success' && r.counts.inDoubt > r.counts.treatedAsApplied
              ? 'in doubt'
              : r.outcome,
      detail: r.underWay
        ? `shard ${r.underWay.shard}/${r.underWay.of} holds it until ${r.underWay.until}${r.parked === null ? '' : `; waiting for ${r.parked}`}`
        : `${r.counts.total} step run(s): ${countsPhrase(r.counts)}${r.parked === null ? '' : `; waiting for ${r.parked}`}${r.endedEarlier ? `; ${ENDED_EARLIER}` : ''}`,
      durationMs: r.durationMs,
      source: r.source,
    })),
    ...report.merged.noReport.map((instance): FleetRow => ({
      label: instance,
      status: NO_REPORT,
      detail: noReportNote(instance),
      durationMs: null,
      source: null,
    })),
  ];
}

/** How many instances without a report the one line names: the rest are counted (every one is a row, and in the JSON's merged.noReport). */
const NAMED = 10;

/** The fleet in one line: "3 job report(s), 1 instance without a report (site=prod)"; past 10, "(…, and 986 more)". */
export function fleetPhrase(report: Report): string | undefined {
  if (!report.merged) return undefined;
  const { reports, noReport } = report.merged;
  const more = noReport.length - NAMED;
  const named = `${noReport.slice(0, NAMED).join(', ')}${more > 0 ? `, and ${more.toLocaleString('en')} more` : ''}`;
  return `${reports.length} job report(s)${noReport.length ? `, ${noReport.length.toLocaleString('en')} instance(s) without a report (${named})` : ''}`;
}

/** From this many sites on, the HTML report opens with a grid and the summary counts what succeeded. */
export const FLEET_SITES = 50;

/** A run over a fleet: the matrix key of its sites, and its values in the order the instances have them. */
export interface Fleet {
  key: string;
  sites: string[];
}

/**
 * The run's fleet: the rollout's `over` key, or else the matrix key with the most values among the
 * instances that run on servers of their own (each value a site, `server: ${{ matrix.site }}`);
 * undefined under FLEET_SITES values. A matrix over one server (500 files) is no fleet.
 */
export function fleetOf(
  report: Pick<Report, 'rollout' | 'steps'> & Partial<Pick<Report, 'matrix' | 'merged'>>,
): Fleet | undefined {
  // Of the servers, only whether there are two is asked, kept without a set of them: a second set
  // of 10,000 names to look up in was a third of this function's time (bench/reports.mjs).
  const keys = new Map<string, { sites: Set<string>; server: string | null; servers: boolean }>();
  for (const s of report.steps) {
    if (!s.matrix) continue;
    for (const key of Object.keys(s.matrix)) {
      let seen = keys.get(key);
      if (!seen) keys.set(key, (seen = { sites: new Set(), server: null, servers: false }));
      seen.sites.add(String(s.matrix[key]));
      if (s.server === null || seen.servers) continue;
      if (seen.server === null) seen.server = s.server;
      else if (seen.server !== s.server) seen.servers = true;
    }
  }
  let key = report.rollout?.over;
  if (key === undefined)
    for (const [k, seen] of keys)
      if (seen.servers && (key === undefined || seen.sites.size > keys.get(key)!.sites.size)) key = k;
  if (key === undefined) return undefined;
  const ran = keys.get(key)?.sites ?? new Set<string>();
  // A merged report's fleet is its whole matrix, the sites no report holds too (in the matrix's order).
  const whole = report.merged ? (report.matrix?.[key] ?? []).map(String) : [];
  const sites = whole.length ? [...new Set([...whole, ...ran])] : [...ran];
  return sites.length >= FLEET_SITES ? { key, sites } : undefined;
}
