// The HTML report of a fleet (report/fleet.ts: a matrix key of many sites) opens with a grid: a
// tile per site, a cell per step of the site, coloured by outcome, each cell a link to its row in
// the list of step runs (a line each: a table of 30,000 rows takes Chromium seconds to lay out).
// The sites that failed or are in doubt come first, then the rest by wave. A fleet's timeline is
// a bar per step of the file rather than per instance. Made in one pass over the instances: the
// page grows linearly with the sites, a few hundred bytes each. The list's lines and the grid's
// tiles are joined a slice at a time (text/slices.ts), so that its time grows linearly too.
import { formatDuration } from '../duration.ts';
import { escapeHtml as h } from '../text/escape.ts';
import { joinMapped } from '../text/slices.ts';
import { errorWords } from './failure-list.ts';
import type { Fleet } from './fleet.ts';
import { doubtNote, durationText, statusOf, type Report, type ReportStep } from './model.ts';
import type { WaysOn } from '../ways-on.ts';

type Status = ReturnType<typeof statusOf>;

/** A short class per status: the grid's cells and the fleet table's badges. */
export const STATUS_CLASS: Record<Status, string> = {
  success: 's',
  failure: 'f',
  skipped: 'k',
  cancelled: 'c',
  'in doubt': 'd',
  'under way': 'u',
};

/** The anchor of an instance's row in the step table: its place in the report's steps. */
export const rowId = (index: number) => `i${index}`;

/** What the grid puts first: a failure, or a call that may have been applied. */
const failing = (s: ReportStep) => s.outcome === 'failure' || s.inDoubt !== null;

/** The page's extra style for a fleet: the grid, the status classes, the row a cell links to. */
export function fleetStyle(colours: Record<string, string>): string {
  const classes = Object.entries(STATUS_CLASS)
    .map(([status, c]) => `.${c} { background: ${colours[status]}; }`)
    .join('\n');
  return `
.grid { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0 16px; }
.grid .t { display: inline-flex; gap: 1px; align-items: center; }
.grid .t b { font-weight: 600; font-size: 12px; margin: 0 4px 0 2px; }
.grid a, .grid i { display: inline-block; width: 7px; height: 14px; border-radius: 1px; }
.grid .n { background: #eaeef2; }
.x { background: #82071e; }
.grid a:hover, .grid a:focus { outline: 2px solid #0969da; }
h3 { font-size: 14px; margin: 14px 0 4px; }
.rows .r { padding: 3px 0; border-bottom: 1px solid #d8dee4; }
.rows .r:target { outline: 3px solid #0969da; }
.rows .badge { margin-right: 6px; }
${classes}
`;
}

/** The grid: a legend, then the failed and in-doubt sites, then each wave's (or every other) site. */
export function fleetGridHtml(report: Report, fleet: Fleet, colours: Record<string, string>): string {
  // The steps of the file the fleet's instances belong to (an analysis round is no cell), in order.
  const inGrid = (s: ReportStep) => s.round === null && !!s.matrix && fleet.key in s.matrix;
  const columns = new Map<number, number>();
  const labels: string[] = [];
  for (const s of report.steps)
    if (inGrid(s) && !columns.has(s.step)) {
      columns.set(s.step, labels.length);
      labels.push(`${s.step + 1}${s.id ? ` (${s.id})` : ''} ${s.uses}`);
    }
  // A site is its place in fleet.sites, looked up by name once per instance and per wave's value;
  // the rest is arrays indexed by it. Maps and sets of 10,000 names (a cell list, the failed, the
  // placed, a wave each) were most of the grid's time, and slower per site the more sites there are.
  const place = new Map<string, number>();
  fleet.sites.forEach((site, k) => place.set(site, k));
  const width = labels.length;
  // Each cell's instances, in order: the first and last of a cell (site * width + column), the next of each.
  const first = new Int32Array(fleet.sites.length * width).fill(-1);
  const last = new Int32Array(first.length);
  const next = new Int32Array(report.steps.length).fill(-1);
  const ran = new Uint8Array(fleet.sites.length);
  const bad = new Uint8Array(fleet.sites.length);
  report.steps.forEach((s, i) => {
    const k = inGrid(s) ? place.get(String(s.matrix![fleet.key])) : undefined;
    if (k === undefined) return;
    const cell = k * width + columns.get(s.step)!;
    if (first[cell]! < 0) first[cell] = i;
    else next[last[cell]!] = i;
    last[cell] = i;
    ran[k] = 1;
    if (failing(s)) bad[k] = 1;
  });
  // A merged report's sites no job's report holds: they fail the fleet, a tile each after the failures.
  const missing = new Uint8Array(fleet.sites.length);
  const prefix = `${fleet.key}=`;
  for (const instance of report.merged?.noReport ?? []) {
    const k = instance.startsWith(prefix) ? place.get(instance.slice(prefix.length)) : undefined;
    if (k !== undefined && !ran[k]) missing[k] = 1;
  }
  const escaped = labels.map(h);
  const counts = new Map<Status, number>();
  let failedInDoubt = 0;
  const waveOf = new Float64Array(fleet.sites.length).fill(Infinity);
  const placesOf = (values: readonly string[]) =>
    values.flatMap((v) => {
      const k = place.get(v);
      return k !== undefined && (ran[k] || missing[k]) ? [k] : [];
    });
  const waves = (report.rollout?.waves ?? []).map((w) => ({ w, own: placesOf(w.values) }));
  for (const { w, own } of waves) for (const k of own) waveOf[k] = w.wave;

  const tile = (k: number, labelled: boolean) => {
    const name = h(fleet.sites[k]!);
    let out = `<span class="t">${labelled ? `<b>${name}</b>` : ''}`;
    if (missing[k]) return `${out}<i class="x" title="${name} · no report: its job died or never ran"></i></span>`;
    for (let c = 0; c < width; c++) {
      if (first[k * width + c]! < 0) {
        out += `<i class="n" title="${name} · ${escaped[c]} · not run"></i>`;
        continue;
      }
      for (let i = first[k * width + c]!; i >= 0; i = next[i]!) {
        const s = report.steps[i]!;
        const status = statusOf(s);
        counts.set(status, (counts.get(status) ?? 0) + 1);
        const doubt = s.inDoubt && status !== 'in doubt' ? ', in doubt' : '';
        if (doubt) failedInDoubt++;
        out += `<a href="#${rowId(i)}" class="${STATUS_CLASS[status]}" title="${name} · ${escaped[c]} · ${status}${doubt}"></a>`;
      }
    }
    return `${out}</span>`;
  };
  const group = (title: string, sites: number[], labelled = false) =>
    `<h3>${h(title)}</h3>\n<div class="grid" role="group" aria-label="${h(title)}">${joinMapped(sites, (k) => tile(k, labelled))}</div>\n`;

  const sites = fleet.sites.flatMap((_, k) => (ran[k] || missing[k] ? [k] : []));
  const parts: string[] = [];
  const failed = sites.filter((k) => bad[k]);
  if (failed.length > 0) {
    failed.sort((a, b) => waveOf[a]! - waveOf[b]!);
    parts.push(group(`Failed or in doubt: ${n(failed.length)} ${fleet.key}(s)`, failed, true));
  }
  const reportless = sites.filter((k) => missing[k]);
  if (reportless.length > 0) parts.push(group(`No report: ${n(reportless.length)} ${fleet.key}(s)`, reportless, true));
  const placed = new Uint8Array(fleet.sites.length);
  for (const { w, own: all } of waves) {
    const own = all.filter((k) => !placed[k]);
    for (const k of own) placed[k] = 1;
    const rest = own.filter((k) => !bad[k] && !missing[k]);
    const above = own.length - rest.length;
    const what = own.some((k) => missing[k]) ? 'failed, in doubt or with no report' : 'failed or in doubt';
    parts.push(
      group(
        `Wave ${w.wave}: ${w.outcome.replace(/-/g, ' ')} · ${n(own.length)} ${fleet.key}(s)${above ? `, ${n(above)} ${what} (above)` : ''}`,
        rest,
      ),
    );
  }
  const others = sites.filter((k) => !placed[k] && !bad[k] && !missing[k]);
  if (others.length > 0)
    parts.push(
      group(`${report.rollout ? 'Outside the waves' : 'The rest'}: ${n(others.length)} ${fleet.key}(s)`, others),
    );

  const shown = [
    'failure',
    'in doubt',
    'cancelled',
    ...(report.merged?.underWay ? ['under way' as const] : []),
    'skipped',
    'success',
  ] as const;
  // A failed cell whose call may have been applied is a failure's colour, counted in doubt as the header counts it.
  const note = (s: Status) => (s === 'failure' && failedInDoubt ? ` (${n(failedInDoubt)} in doubt)` : '');
  const legend =
    shown
      .map((s) => `<span><i style="background:${colours[s]}"></i>${s} ${n(counts.get(s) ?? 0)}${note(s)}</span>`)
      .join('') + (reportless.length ? `<span><i class="x"></i>no report ${n(reportless.length)}</span>` : '');
  return `<h2>${h(fleet.key)}: ${n(sites.length)} at a glance</h2>
<p class="hint">A tile per ${h(fleet.key)}, a cell per step, left to right: ${escaped.join(' · ')}. Each cell links to its row in the table of steps; hover for what it is.</p>
<div class="legend">${legend}</div>
${parts.join('')}`;
}

/** A fleet's timeline: a bar per step of the file, from its first instance's start to its last's end, in its worst outcome. */
export function stepTimelineHtml(report: Report, colours: Record<string, string>): string {
  const start = Date.parse(report.startedAt);
  const total = Math.max(1, report.durationMs);
  const WORST: Status[] = ['failure', 'in doubt', 'cancelled', 'under way', 'skipped', 'success'];
  const steps = new Map<
    number,
    { label: string; runs: number; from: number; to: number; worst: number; earlier: number }
  >();
  for (const s of report.steps) {
    let e = steps.get(s.step);
    if (!e)
      steps.set(
        s.step,
        (e = {
          label: `${s.step + 1} ${s.uses}`,
          runs: 0,
          from: Infinity,
          to: -Infinity,
          worst: WORST.length - 1,
          earlier: 0,
        }),
      );
    e.runs++;
    e.worst = Math.min(e.worst, WORST.indexOf(statusOf(s)));
    // An instance done in an earlier run (a resume's, carried) did not run in this one: not on its bar.
    if (s.resume === 'earlier-run') e.earlier++;
    if (!s.startedAt || s.resume === 'earlier-run') continue;
    const at = Date.parse(s.startedAt) - start;
    e.from = Math.min(e.from, at);
    e.to = Math.max(e.to, at + (s.durationMs ?? 0));
  }
  return [...steps.values()]
    .map((e) => {
      const ran = e.from !== Infinity;
      const left = ran ? Math.min(100, (Math.max(0, e.from) / total) * 100) : 0;
      const width = ran ? Math.max(0.4, Math.min(100 - left, ((e.to - e.from) / total) * 100)) : 0;
      const worst = WORST[e.worst]!;
      const bar = ran
        ? `<div class="bar" style="left:${left.toFixed(2)}%;width:${width.toFixed(2)}%;background:${colours[worst]}" title="${h(worst)}"></div>`
        : '';
      const label = `${e.label} (${n(e.runs)} runs)`;
      return `<div class="row"><div class="label" title="${h(label)}">${h(label)}</div><div class="track">${bar}</div><div class="time">${ran ? h(formatDuration(e.to - e.from)) : e.earlier > 0 ? '(earlier run)' : ''}</div></div>`;
    })
    .join('\n');
}

/** A step run's name and its notes (continue-on-error, earlier run, in doubt), for the table or the list. */
export function stepNameHtml(s: ReportStep, ways?: WaysOn): string {
  return `${h(s.name)}${s.continuedOnError ? ' <em>(continue-on-error)</em>' : ''}${s.resume === 'earlier-run' ? ' <em>(earlier run)</em>' : ''}${(s.inDoubt && (s.outcome !== 'cancelled' || s.decision)) || s.decision ? ` <em>(${h(doubtNote(s, ways))})</em>` : ''}`;
}

/** A step run's error and what to do, or '' (errorWords: of a write not sent again, its call's past error). */
export function errorHtml(s: ReportStep): string {
  const e = errorWords(s);
  return `${e ? `<div class="error">${h(e.message)}</div>` : ''}${e?.hint ? `<div class="hint">what to do: ${h(e.hint)}</div>` : ''}`;
}

/** A fleet's step runs, a line each, anchored for the grid's links: its outcome, name, duration, figures, error. */
export function fleetStepsHtml(report: Report, ways?: WaysOn): string {
  return joinMapped(
    report.steps,
    (s, i) => {
      const status = statusOf(s);
      const duration = s.startedAt ? ` · ${h(durationText(s.durationMs, formatDuration))}` : '';
      return `<div id="${rowId(i)}" class="r"><span class="badge ${STATUS_CLASS[status]}">${h(status)}</span>${stepNameHtml(s, ways)}${duration}${s.figures ? ` · ${h(s.figures)}` : ''}${errorHtml(s)}</div>`;
    },
    '\n',
  );
}

const n = (v: number) => v.toLocaleString('en');
