// The HTML report (--html): one self-contained file, no script, no network. The outcome (and
// where a rollout halted), a rollout's waves, a timeline of the steps (bars by start and duration,
// coloured by outcome), the step table, the failures, and each update's own report rendered. A
// fleet's (report/fleet.ts) opens with a grid of its sites (fleet-grid.ts), its timeline has a bar
// per step of the file, and only its failed updates' reports are rendered.
import { formatDuration } from '../duration.ts';
import {
  durationText,
  limitedTo,
  runNotes,
  statusOf,
  targetOf,
  updateReportOf,
  type Report,
  type ReportStep,
  outcomeWord,
  countsText,
} from './model.ts';
import { fleetOf, fleetPhrase, fleetRows } from './fleet.ts';
import { errorHtml, fleetGridHtml, fleetStepsHtml, fleetStyle, stepNameHtml, stepTimelineHtml } from './fleet-grid.ts';
import { markdownBudget, markdownToHtml } from './server-markdown.ts';
import { escapeHtml as h } from '../text/escape.ts';
import { haltHtml, wavesHtml } from './waves.ts';
import { windowNote } from './window-note.ts';
import type { WaysOn } from '../ways-on.ts';

const COLOURS: Record<string, string> = {
  success: '#1a7f37',
  failure: '#cf222e',
  skipped: '#8c959f',
  cancelled: '#bf8700',
  'in doubt': '#bc4c00',
  'under way': '#0969da',
};
/** The header's colour: a run's outcome, or parked. */
const RUN_COLOURS: Record<string, string> = { ...COLOURS, parked: '#8250df' };
const JOB_COLOURS: Record<string, string> = { ...RUN_COLOURS, 'no report': '#82071e' };

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #fff; }
header { padding: 20px 28px; color: #fff; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 0; opacity: .9; }
main { padding: 8px 28px 40px; max-width: 1200px; }
h2 { font-size: 17px; margin: 28px 0 10px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #d8dee4; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
.badge { display: inline-block; min-width: 72px; text-align: center; padding: 1px 8px; border-radius: 10px; color: #fff; font-size: 12px; }
.timeline .row { display: grid; grid-template-columns: 300px 1fr 80px; align-items: center; gap: 10px; margin: 3px 0; }
.timeline .label { overflow-wrap: anywhere; }
.timeline .track { position: relative; height: 16px; background: #f6f8fa; border-radius: 3px; }
.timeline .bar { position: absolute; top: 0; height: 16px; border-radius: 3px; min-width: 3px; }
.timeline .time { color: #59636e; font-variant-numeric: tabular-nums; }
.legend span { margin-right: 14px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
.error { color: #cf222e; }
.hint { color: #59636e; }
details { border: 1px solid #d0d7de; border-radius: 6px; margin: 10px 0; padding: 6px 12px; }
summary { cursor: pointer; font-weight: 600; }
.report table { width: auto; }
.report h1 { font-size: 19px; }
.report h2 { font-size: 15px; border: none; }
.report code, pre { background: #f6f8fa; }
footer { color: #59636e; font-size: 12px; margin-top: 30px; }
`;

export function renderHtml(report: Report, ways?: WaysOn): string {
  const fleet = fleetOf(report);
  const start = Date.parse(report.startedAt);
  const total = Math.max(1, report.durationMs);
  const rows = fleet
    ? stepTimelineHtml(report, COLOURS)
    : report.steps
        .map((s) => {
          // An instance done in an earlier run (a resume's, carried) did not run in this one: no bar.
          const earlier = s.resume === 'earlier-run';
          const offset = s.startedAt ? Math.max(0, Date.parse(s.startedAt) - start) : 0;
          const left = Math.min(100, (offset / total) * 100);
          const width = s.startedAt ? Math.max(0.4, Math.min(100 - left, ((s.durationMs ?? 0) / total) * 100)) : 0;
          const bar =
            s.startedAt && !earlier
              ? `<div class="bar" style="left:${left.toFixed(2)}%;width:${width.toFixed(2)}%;background:${COLOURS[statusOf(s)]}" title="${h(statusOf(s))}"></div>`
              : '';
          return `<div class="row"><div class="label" title="${h(s.name)}">${h(s.name)}</div><div class="track">${bar}</div><div class="time">${s.startedAt ? h(durationText(s.durationMs, formatDuration)) : h(statusOf(s))}${earlier ? ' (earlier run)' : ''}</div></div>`;
        })
        .join('\n');
  // A fleet's step runs are a list (fleet-grid.ts): a table of 30,000 rows takes Chromium seconds to lay out.
  const table = fleet
    ? fleetStepsHtml(report, ways)
    : report.steps
        .map(
          (s) =>
            `<tr><td><span class="badge" style="background:${COLOURS[statusOf(s)]}">${h(statusOf(s))}</span></td><td>${stepNameHtml(s, ways)}<br><code>${h(s.uses)}</code>${windowNote(s) ? `<br><small>${h(windowNote(s))}</small>` : ''}</td><td>${h(targetOf(s))}</td><td>${s.startedAt ? h(durationText(s.durationMs, formatDuration)) : ''}</td><td>${h(s.figures ?? '')}${errorHtml(s)}</td></tr>`,
        )
        .join('\n');
  // A fleet's thousands of updates that succeeded are in the JSON report, counted here (not gathered:
  // held to the end, a pair per instance would outlive the young generation); its failed ones are here.
  const shownUpdates: { s: ReportStep; u: { report: string; success: boolean } }[] = [];
  let succeededLeft = 0;
  for (const s of report.steps) {
    const u = updateReportOf(s);
    if (u && fleet && u.success) succeededLeft++;
    else if (u) shownUpdates.push({ s, u });
  }
  // One budget of Markdown for the page: the reports past it are shown as plain text.
  const budget = markdownBudget();
  const updates = shownUpdates
    .map(
      ({ s, u }) =>
        `<details open><summary>${h(s.name)}: ${u.success ? 'succeeded' : 'failed'}</summary><div class="report">${markdownToHtml(u.report, budget)}</div></details>`,
    )
    .join('\n');
  const updatesNote = succeededLeft
    ? `<p class="hint">The reports of the ${succeededLeft.toLocaleString('en')} update(s) that succeeded are in the JSON report.</p>\n`
    : '';
  const jobs = fleetRows(report)
    .map(
      (r) =>
        `<tr><td><span class="badge" style="background:${JOB_COLOURS[r.status]}">${h(r.status)}</span></td><td>${h(r.label)}</td><td>${h(r.detail)}</td><td>${r.durationMs === null ? '' : h(formatDuration(r.durationMs))}</td></tr>`,
    )
    .join('\n');
  const c = report.counts;
  const merged = fleetPhrase(report);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(report.pipeline.name)}: ${h(outcomeWord(report))}</title>
<style>${STYLE}${fleet ? fleetStyle(COLOURS) : ''}</style>
</head>
<body>
<header style="background:${RUN_COLOURS[outcomeWord(report)]}">
<h1>${h(report.pipeline.name)}: ${h(outcomeWord(report))}</h1>
<p>${h(report.pipeline.file)} · started ${h(report.startedAt)} · ${h(formatDuration(report.durationMs))} · ${c.total} step run(s): ${h(countsText(report))}${limitedTo(report) ? ` · limited to: ${h(limitedTo(report)!)}` : ''}${merged ? ` · merged from ${h(merged)}` : ''}</p>
${haltHtml(report)}${runNotes(report, ways)
    .map((n) => `<p><strong>${h(n)}</strong></p>\n`)
    .join('')}</header>
<main>
${fleet ? fleetGridHtml(report, fleet, COLOURS) : ''}${jobs ? `<h2>Jobs</h2>\n<table>\n<thead><tr><th>Outcome</th><th>Job</th><th>Step runs</th><th>Duration</th></tr></thead>\n<tbody>\n${jobs}\n</tbody>\n</table>\n` : ''}${wavesHtml(report)}<h2>Timeline${fleet ? ' by step' : ''}</h2>
<div class="legend">${Object.entries(COLOURS)
    // "under way" only in a sharded run's report read while its workers ran.
    .filter(([k]) => k !== 'under way' || report.merged?.underWay)
    .map(([k, v]) => `<span><i style="background:${v}"></i>${k}</span>`)
    .join('')}</div>
<div class="timeline">
${rows}
</div>
<h2>Steps</h2>
${
  fleet
    ? `<div class="rows">\n${table}\n</div>`
    : `<table>
<thead><tr><th>Outcome</th><th>Step</th><th>Target</th><th>Duration</th><th>Key figures</th></tr></thead>
<tbody>
${table}
</tbody>
</table>`
}
${updates || updatesNote ? `<h2>Update reports</h2>\n${updatesNote}${updates}` : ''}
<footer>enginectl ${h(report.tool.version)} · report format ${report.reportVersion}</footer>
</main>
</body>
</html>
`;
}
