// The Markdown summary (GitHub job summary, --summary): outcome first, the step table, failures
// with what to do, each update's own report in <details>, warnings and errors. Always under the
// 1 MiB limit of a job summary: the biggest update reports are cut first, with a pointer to the
// full JSON/HTML report.
import { formatDuration } from '../duration.ts';
import { countsPhrase } from '../runner/result.ts';
import { doubtNote, durationText, ICONS, limitedTo, statusOf, targetOf, updateReportOf, type Report, type ReportStep } from './model.ts';
import { neutralise } from '../text/neutralise.ts';
import { cell, codeSpan, noMentions } from '../text/escape.ts';
import { wavesMarkdown } from './waves.ts';
import { fleetPhrase, fleetRows } from './fleet.ts';

export const SUMMARY_LIMIT = 1024 * 1024;
/** Room left for GitHub's own framing of the summary. */
const BUDGET = SUMMARY_LIMIT - 16 * 1024;

export interface MarkdownOptions {
  /** Where the full reports are, for the note when parts are cut. */
  fullReport?: string;
  /** Size limit; SUMMARY_LIMIT minus a margin by default. */
  limit?: number;
}

/** Links the summary keeps: http(s), mailto and in-page; anything else (javascript:) goes. */
const UNSAFE_INLINE_LINK = /\]\(\s*<?(?!https?:|mailto:|#)[^)\s>]*>?/gi;
const UNSAFE_LINK_DEFINITION = /^(\s{0,3}\[[^\]\n]+\]:\s*)(?!https?:|mailto:|#)\S+/gim;

/**
 * Server text inside the summary, still Markdown (headings, lists, tables render) but inert: raw
 * HTML is shown as text, so it cannot close <details>; images are not loaded; links to anything
 * but http(s), mailto and anchors are cut; control characters are made visible and CI commands
 * broken, so the file stays inert wherever it is printed.
 */
function serverMarkdown(text: string): string {
  return noMentions(neutralise(text.replace(/\r\n/g, '\n')))
    .replace(/</g, '&lt;')
    .replace(/!\[/g, '!\\[')
    .replace(UNSAFE_INLINE_LINK, '](#unsafe-link-removed')
    .replace(UNSAFE_LINK_DEFINITION, '$1#unsafe-link-removed');
}

function issuesOf(step: ReportStep): { errors: string[]; warnings: string[] } {
  const r = step.result as { errors?: unknown[]; warnings?: unknown[] } | null;
  const describe = (i: unknown) => (typeof i === 'string' ? i : i && typeof i === 'object' && 'message' in i ? String((i as { message: unknown }).message) : JSON.stringify(i));
  return {
    errors: Array.isArray(r?.errors) ? r.errors.map(describe) : [],
    warnings: Array.isArray(r?.warnings) ? r.warnings.map(describe) : step.warnings,
  };
}

export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const limit = options.limit ?? BUDGET;
  const updates = report.steps.map((s) => ({ step: s, update: updateReportOf(s) })).filter((u) => u.update);
  // A report bigger than the whole budget is cut before composing anything with it.
  const cut = new Set<ReportStep>(updates.filter((u) => u.update!.report.length > limit).map((u) => u.step));
  for (;;) {
    const text = compose(report, cut, options);
    if (Buffer.byteLength(text) <= limit) return text;
    const biggest = updates.filter((u) => !cut.has(u.step)).sort((a, b) => b.update!.report.length - a.update!.report.length)[0];
    if (!biggest) return truncate(text, limit, options);
    cut.add(biggest.step);
  }
}

function truncate(text: string, limit: number, options: MarkdownOptions): string {
  const note = `\n\n> **The summary was cut at ${Math.round(limit / 1024)} KiB.** The full report is in ${options.fullReport ?? 'the JSON and HTML reports'}.\n`;
  let body = Buffer.from(text).subarray(0, limit - Buffer.byteLength(note) - 4).toString('utf8');
  body = body.replace(/\uFFFD$/, '');
  return `${body}${note}`;
}

/** The server's headings sit below the summary's own (## and ###): # becomes ####, at most ######. */
/**
 * A server's report held inside its section: its headings demoted below the summary's, and a code
 * fence it leaves open closed, so nothing after it (the next step's report, the errors) is
 * swallowed into it.
 */
function contained(markdown: string): string {
  let fence: string | undefined;
  const lines = markdown.split('\n').map((line) => {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (f && (fence === undefined || f.startsWith(fence))) fence = fence === undefined ? f : undefined;
    if (fence !== undefined || f) return line;
    return line.replace(/^(\s{0,3})(#{1,6})(?=\s|$)/, (_, indent: string, hashes: string) => `${indent}${'#'.repeat(Math.min(6, hashes.length + 3))}`);
  });
  if (fence !== undefined) lines.push(fence);
  return lines.join('\n');
}

function compose(report: Report, cut: ReadonlySet<ReportStep>, options: MarkdownOptions): string {
  const out: string[] = [];
  const icon = ICONS[report.outcome] ?? '';
  out.push(`## ${icon} ${cell(report.pipeline.name)}: ${report.outcome}`, '');
  const c = report.counts;
  const limited = limitedTo(report);
  const fleet = fleetPhrase(report);
  out.push(`\`${cell(report.pipeline.file)}\` · ${c.total} step run(s): ${countsPhrase(c)} · ${formatDuration(report.durationMs)} · enginectl ${cell(report.tool.version)}${limited ? ` · limited to: ${cell(limited)}` : ''}${fleet ? ` · merged from ${cell(fleet)}` : ''}`, '');
  // A merged report's jobs come first: if anything must be cut, it is not the fleet's rows.
  const rows = fleetRows(report);
  if (rows.length > 0) {
    out.push('### Jobs', '', '| | Job | Outcome | Step runs | Duration |', '|---|---|---|---|---|');
    for (const r of rows) out.push(`| ${ICONS[r.status]} | ${cell(r.label)} | ${r.status} | ${cell(r.detail)} | ${r.durationMs === null ? '' : formatDuration(r.durationMs)} |`);
    out.push('', '### Steps', '');
  }
  out.push(...wavesMarkdown(report));
  out.push('| | Step | Target | Duration | Key figures |', '|---|---|---|---|---|');
  for (const s of report.steps) {
    const doubt = doubtNote(s);
    const note = `${s.continuedOnError ? ' (continue-on-error)' : ''}${doubt ? ` (${cell(doubt)})` : ''}${s.resume === 'earlier-run' ? ' (earlier run)' : ''}`;
    out.push(`| ${ICONS[statusOf(s)]} | ${cell(s.name)}${note} | ${cell(targetOf(s))} | ${s.startedAt ? durationText(s.durationMs, formatDuration) : ''} | ${cell(s.figures ?? (s.outcome === 'skipped' ? 'skipped' : ''))} |`);
  }
  out.push('');

  const failed = report.steps.filter((s) => s.outcome === 'failure' || s.inDoubt || (s.outcome === 'cancelled' && s.error));
  if (failed.length > 0) {
    const title = failed.some((s) => s.inDoubt) ? 'Failed, cancelled and in-doubt steps' : failed.some((s) => s.outcome === 'cancelled') ? 'Failed and cancelled steps' : 'Failed steps';
    // Under a success header, the failures are those continue-on-error let pass: say so.
    out.push(`### ${title}${report.outcome === 'success' ? ' (continue-on-error let them pass)' : ''}`, '');
    for (const s of failed) {
      out.push(`- **${cell(s.name)}** (${codeSpan(s.uses)}): ${cell(s.error?.message ?? s.outcome)}`);
      if (s.error?.hint) out.push(`  - what to do: ${cell(s.error.hint)}`);
    }
    out.push('');
  }

  const updates = report.steps.map((s) => ({ s, u: updateReportOf(s) })).filter((x) => x.u);
  if (updates.length > 0) {
    out.push('### Update reports', '');
    for (const { s, u } of updates) {
      out.push('<details>', `<summary>${ICONS[u!.success ? 'success' : 'failure']} ${cell(s.name)}: ${u!.success ? 'succeeded' : 'failed'}</summary>`, '');
      if (cut.has(s)) out.push(`_This report (${Math.round(u!.report.length / 1024)} KiB) was cut to keep the summary under 1 MiB; it is in ${options.fullReport ?? 'the JSON and HTML reports'}._`);
      else out.push(contained(serverMarkdown(u!.report.trimEnd())));
      out.push('', '</details>', '');
    }
  }

  const notes = report.steps.flatMap((s) => {
    const { errors, warnings } = issuesOf(s);
    return [...errors.map((e) => `- ❌ **${cell(s.name)}**: ${cell(e)}`), ...warnings.map((w) => `- ⚠️ **${cell(s.name)}**: ${cell(w)}`)];
  });
  if (notes.length > 0) out.push('### Errors and warnings reported by the server', '', ...notes, '');
  return `${out.join('\n').trimEnd()}\n`;
}
