// What the Markdown summary counts rather than lists: each step of the file, its instances by
// outcome (and, for a fleet, its failures by error code), standing in for the rows a summary
// leaves out. A fleet's summary (report/fleet.ts: 50 sites or more) lists only what failed or is
// in doubt and counts the rest, under a smaller limit than the job summary's 1 MiB.
import { cell, codeSpan } from '../text/escape.ts';
import type { Fleet } from './fleet.ts';
import { stepsCounted, type Report, type ReportStep } from './model.ts';

/** A fleet's summary stays under this many bytes, whatever failed: its counts say the rest. */
export const FLEET_SUMMARY_LIMIT = 64 * 1024;

/** Each step of the file, its instances counted by outcome: what stands in for the rows left out. */
export function stepCounts(report: Report, fleet?: Fleet): string[] {
  const byStep = new Map<number, ReportStep[]>();
  for (const s of report.steps) {
    const list = byStep.get(s.step);
    if (list) list.push(s);
    else byStep.set(s.step, [s]);
  }
  const out = ['### Step runs by step', '', '| Step | Type | Runs | Outcomes |', '|---|---|---|---|'];
  for (const [step, runs] of byStep)
    out.push(
      `| ${step + 1}${runs[0]!.id ? ` (${cell(runs[0]!.id)})` : ''} | ${codeSpan(runs[0]!.uses)} | ${runs.length} | ${stepsCounted(runs)}${fleet ? errorCodes(runs) : ''} |`,
    );
  out.push('');
  return out;
}

/** " (API_CONFLICT 20, STEP_FAILED 1)": the errors of a step's failed instances, by code, most first. */
function errorCodes(runs: ReportStep[]): string {
  const codes = new Map<string, number>();
  for (const s of runs)
    if (s.outcome === 'failure' && s.error) codes.set(s.error.code, (codes.get(s.error.code) ?? 0) + 1);
  if (codes.size === 0) return '';
  const sorted = [...codes].sort((a, b) => b[1] - a[1]);
  // A merged report's codes are read from the jobs' reports: text from outside, shown as text.
  return ` (${sorted.map(([code, count]) => `${cell(code)} ${count}`).join(', ')})`;
}

/** The line under a fleet summary's headline: what it lists, what it counts, where the rest is. */
export function fleetLead(report: Report, fleet: Fleet, listed: number, where: string): string[] {
  const rest = report.steps.length - listed;
  return [
    `**A fleet of ${fleet.sites.length.toLocaleString('en')} ${cell(fleet.key)}(s).** ${listed ? `The ${listed.toLocaleString('en')} step run(s) that failed or are in doubt are listed first; the other` : 'None failed or is in doubt; the'} ${rest.toLocaleString('en')} are counted by step below, and each is in ${cell(where)}.`,
    '',
  ];
}
