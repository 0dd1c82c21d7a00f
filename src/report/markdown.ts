// Longer than 250 lines: the summary's sections, each ranked for when they do not all fit, read together.
// The Markdown summary (GitHub job summary, --summary): outcome first, the step table, failures
// with what to do, each update's own report in <details>, enginectl's own warnings, then the
// server's errors and warnings (step-issues.ts: never one for the other). Always under the
// 1 MiB limit of a job summary, fitted in one pass (markdown-fit.ts): when it does not all fit,
// the failing and in-doubt instances are kept first, each step's counts stand in for the rows
// left out, and a note at the top says what was left out and where the full report is. A fleet's
// summary (report/fleet.ts) leads with what failed or is in doubt and counts the rest
// (markdown-fleet.ts), in a few KiB.
import { formatDuration } from '../duration.ts';
import { windowNote } from './window-note.ts';
import { failureItem, failuresHeading, notSentAgain } from './failure-list.ts';
import {
  doubtNote,
  durationText,
  ICONS,
  limitedTo,
  runNotes,
  statusOf,
  targetOf,
  updateReportOf,
  type Report,
  type ReportStep,
  outcomeWord,
  underWay,
  countsText,
} from './model.ts';
import { serverReportMarkdown } from './summary-server-text.ts';
import { issuesOf } from './step-issues.ts';
import { cell, codeSpan } from '../text/escape.ts';
import { wavesMarkdown } from './waves.ts';
import { fleetOf, fleetPhrase, fleetRows, NO_REPORT, type Fleet } from './fleet.ts';
import { FLEET_SUMMARY_LIMIT, fleetLead, stepCounts } from './markdown-fleet.ts';
import {
  fitSections,
  joinSections,
  leftOutPhrase,
  sizeOf,
  type Block,
  type LeftOut,
  type Section,
} from './markdown-fit.ts';
import type { WaysOn } from '../ways-on.ts';

export const SUMMARY_LIMIT = 1024 * 1024;
/** Room left for GitHub's own framing of the summary. */
export const SUMMARY_BUDGET = SUMMARY_LIMIT - 16 * 1024;
const BUDGET = SUMMARY_BUDGET;

export interface MarkdownOptions {
  /** Where the full reports are, for the note when parts are cut. */
  fullReport?: string;
  /** Size limit; SUMMARY_LIMIT minus a margin by default. */
  limit?: number;
  /** Counts each piece made (a row, a failure, an update report, a note): what a rendering costs. */
  work?: { pieces: number };
  /** How the surface names the ways on in the notes (the CLI's flags by default). */
  ways?: WaysOn | undefined;
}

export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const fleet = fleetOf(report);
  const limit = Math.min(options.limit ?? BUDGET, fleet ? FLEET_SUMMARY_LIMIT : Infinity);
  const sections = compose(report, limit, options, fleet);
  if (sizeOf(sections) <= limit) return joinSections(sections);
  // Too big: fitted in one pass, the failing and in-doubt instances first, then each step's counts.
  const fitted = fitSections(sections, limit, {
    lines: fleet ? [] : stepCounts(report),
    note: (leftOut) => cutNote(limit, leftOut, options),
    noteRoom: NOTE_ROOM,
  });
  return Buffer.byteLength(fitted) <= limit ? fitted : truncate(fitted, limit, options);
}

/** Room kept for the note of what was left out. */
const NOTE_ROOM = 1024;

const PLURAL: Record<string, string> = {
  job: 'job rows',
  row: 'step rows',
  failure: 'failed, cancelled or in-doubt steps',
  update: 'update reports',
  own: "enginectl's warnings",
  note: 'server errors and warnings',
};

function cutNote(limit: number, leftOut: LeftOut, options: MarkdownOptions): string[] {
  const failures = leftOut.get('failure');
  const all = failures && failures.left > 0 ? '' : ' Every failed, cancelled and in-doubt step is listed below.';
  return [
    `> **The summary was cut at ${Math.round(limit / 1024)} KiB.** The full report is in ${options.fullReport ?? 'the JSON and HTML reports'}. Left out: ${leftOutPhrase(leftOut, PLURAL)}.${all}`,
    '',
  ];
}

/** A last resort, should the fitted text still be over the limit: cut at the limit, with the pointer. */
function truncate(text: string, limit: number, options: MarkdownOptions): string {
  const note = `\n\n> **The summary was cut at ${Math.round(limit / 1024)} KiB.** The full report is in ${options.fullReport ?? 'the JSON and HTML reports'}.\n`;
  let body = Buffer.from(text)
    .subarray(0, limit - Buffer.byteLength(note) - 4)
    .toString('utf8');
  body = body.replace(/\uFFFD$/, '');
  return `${body}${note}`;
}

/** The summary's sections, each piece made once, ranked for when they do not all fit. */
function compose(report: Report, limit: number, options: MarkdownOptions, fleet: Fleet | undefined): Section[] {
  const block = (text: string, rank: number, what: string, cut?: string): Block => {
    if (options.work) options.work.pieces++;
    return { text, rank, what, cut };
  };
  const icon = ICONS[outcomeWord(report)] ?? '';
  const c = report.counts;
  const limited = limitedTo(report);
  const merged = fleetPhrase(report);
  const failing = (s: ReportStep) =>
    s.outcome === 'failure' || s.inDoubt !== null || (s.outcome === 'cancelled' && s.error !== null && !underWay(s));
  // A fleet's summary lists what failed, is in doubt or was cut short, and counts the rest: what
  // never started (left by a halt, an interrupt or a park) is counted by step, not listed.
  const listed = (s: ReportStep) =>
    failing(s) && (!fleet || s.outcome !== 'cancelled' || s.inDoubt !== null || s.startedAt !== null);
  const failed = report.steps.filter(listed);
  const shown = fleet ? failed : report.steps;
  const where = options.fullReport ?? 'the JSON and HTML reports';
  const top: Section = {
    head: [
      `## ${icon} ${cell(report.pipeline.name)}: ${outcomeWord(report)}`,
      '',
      `${codeSpan(report.pipeline.file)} · ${c.total} step run(s): ${countsText(report)} · ${formatDuration(report.durationMs)} · enginectl ${cell(report.tool.version)}${limited ? ` · limited to: ${cell(limited)}` : ''}${merged ? ` · merged from ${cell(merged)}` : ''}`,
      '',
      ...runNotes(report, options.ways).flatMap((note) => [`**${cell(note)}**`, '']),
      ...(fleet ? fleetLead(report, fleet, failed.length, where) : []),
    ],
    blocks: [],
    tail: [],
  };
  const sections: Section[] = [top];
  // A merged report's jobs first (failed or reportless first); the steps' heading unless waves or failures head them.
  // A fleet's jobs that succeeded are counted, not listed; a job with no report ranks after the failures, whose hints say more.
  const allRows = fleetRows(report);
  const rows = fleet ? allRows.filter((r) => r.status !== 'success') : allRows;
  const succeeded = allRows.length - rows.length;
  if (allRows.length > 0) {
    sections.push({
      head: [
        '### Jobs',
        '',
        ...(rows.length ? ['| | Job | Outcome | Step runs | Duration |', '|---|---|---|---|---|'] : []),
      ],
      // A failed job's row and a failure's message are taken in turn: 1,000 failed jobs' rows leave room for why.
      blocks: rows.map((r, j) => ({
        ...block(
          `| ${ICONS[r.status]} | ${cell(r.label)} | ${r.status} | ${cell(r.detail)} | ${r.durationMs === null ? '' : formatDuration(r.durationMs)} |`,
          r.status === 'success' ? RANK.job : r.status === NO_REPORT ? RANK.noReport : RANK.failure,
          'job',
        ),
        order: 2 * j,
      })),
      tail: [
        '',
        ...(succeeded ? [`${succeeded.toLocaleString('en')} job(s) succeeded: each is in ${cell(where)}.`, ''] : []),
        ...(fleet || report.rollout ? [] : ['### Steps', '']),
      ],
    });
  }
  // A fleet in which nothing failed has no table of its failures: its lead says none did.
  if (!fleet || shown.length > 0)
    sections.push({
      head: [
        ...(fleet ? ['### Failed or in doubt', ''] : wavesMarkdown(report)),
        '| | Step | Target | Duration | Key figures |',
        '|---|---|---|---|---|',
      ],
      blocks: shown.map((s) => {
        const doubt = doubtNote(s, options.ways);
        const window = windowNote(s);
        const note = `${s.continuedOnError ? ' (continue-on-error)' : ''}${doubt ? ` (${cell(doubt)})` : ''}${s.resume === 'earlier-run' ? ' (earlier run)' : ''}${window ? ` (${cell(window)})` : ''}`;
        return block(
          `| ${ICONS[statusOf(s)]} | ${cell(s.name)}${note} | ${cell(targetOf(s))} | ${s.startedAt ? durationText(s.durationMs, formatDuration) : ''} | ${cell(s.figures ?? (s.outcome === 'skipped' && !notSentAgain(s) ? 'skipped' : ''))} |`,
          failing(s) ? RANK.failingRow : RANK.row,
          'row',
        );
      }),
      tail: [''],
      optional: fleet !== undefined,
    });

  if (failed.length > 0) {
    const title = failed.some((s) => s.inDoubt)
      ? 'Failed, cancelled and in-doubt steps'
      : failed.some((s) => s.outcome === 'cancelled')
        ? 'Failed and cancelled steps'
        : 'Failed steps';
    // Under a success header, what let them pass (continue-on-error, the operator's decision): said.
    const { heading, named } = failuresHeading(title, failed, outcomeWord(report) === 'success');
    sections.push({
      head: [`### ${heading}`, ''],
      blocks: failed.map((s, k) => ({
        ...block(failureItem(s, named, options.ways), RANK.failure, 'failure'),
        order: 2 * k + 1,
      })),
      tail: [''],
      optional: true,
    });
  }

  // A fleet's counts and waves come after what failed.
  if (fleet)
    sections.push({ head: [...stepCounts(report, fleet), ...wavesMarkdown(report, false)], blocks: [], tail: [] });
  const updates = shown.map((s) => ({ s, u: updateReportOf(s) })).filter((x) => x.u);
  if (updates.length > 0) {
    sections.push({
      head: ['### Update reports', ''],
      blocks: updates.map(({ s, u }) => {
        const open = [
          '<details>',
          `<summary>${ICONS[u!.success ? 'success' : 'failure']} ${cell(s.name)}: ${u!.success ? 'succeeded' : 'failed'}</summary>`,
          '',
        ];
        const cut = [
          ...open,
          `_This report (${Math.round(u!.report.length / 1024)} KiB) was cut to keep the summary under 1 MiB; it is in ${where}._`,
          '',
          '</details>',
          '',
        ].join('\n');
        // A report bigger than the whole budget is never made: only its pointer can be shown.
        if (u!.report.length > limit) return { ...block(cut, RANK.update, 'update', cut), size: Infinity };
        return block(
          [...open, serverReportMarkdown(u!.report.trimEnd()), '', '</details>', ''].join('\n'),
          u!.success ? RANK.update : RANK.failedUpdate,
          'update',
          cut,
        );
      }),
      tail: [],
      optional: true,
    });
  }

  // What enginectl concluded (a window overridden, a write maybe applied twice) is its own, never the server's word.
  const issues = shown.map((s) => ({ s, ...issuesOf(s) }));
  const own = issues.flatMap(({ s, own }) => own.map((w) => `- ⚠️ **${cell(s.name)}**: ${cell(w)}`));
  if (own.length > 0)
    sections.push({
      head: ['### Warnings enginectl raised', ''],
      blocks: own.map((n) => block(n, RANK.own, 'own')),
      tail: [''],
      optional: true,
    });
  const notes = issues.flatMap(({ s, server }) => [
    ...server.errors.map((e) => `- ❌ **${cell(s.name)}**: ${cell(e)}`),
    ...server.warnings.map((w) => `- ⚠️ **${cell(s.name)}**: ${cell(w)}`),
  ]);
  if (notes.length > 0)
    sections.push({
      head: ['### Errors and warnings reported by the server', ''],
      blocks: notes.map((n) => block(n, RANK.note, 'note')),
      tail: [''],
      optional: true,
    });
  return sections;
}

/** What is kept first when not everything fits. */
const RANK = {
  failure: 0,
  job: 1,
  failingRow: 2,
  noReport: 3,
  failedUpdate: 4,
  row: 5,
  own: 6,
  update: 7,
  note: 8,
} as const;
