// A rollout's waves as the Markdown summary and the HTML report show them: a row per wave, its
// values, what became of it (done, failed within its budget, halted, not started), the analysis
// after it, and, once, where the rollout halted and why (nothing is undone); the instances not
// started say only where.
import { cell, escapeHtml as h } from '../text/escape.ts';
import type { Report } from './model.ts';

type Rollout = NonNullable<Report['rollout']>;
type Wave = Rollout['waves'][number];

const WORDS: Record<NonNullable<Report['rollout']>['waves'][number]['outcome'], string> = {
  done: '✅ done',
  'failed-within-budget': '⚠️ failed within budget',
  halted: '❌ halted',
  'not-started': '⏸️ not started',
  cancelled: '■ cancelled',
  parked: '⏸️ parked',
  'under-way': '🔄 under way',
};

const HALTED_AFTER = 'Nothing was undone; the waves after it did not start.';

const valuesOf = (w: Wave) =>
  w.values.length > 8 ? `${w.values.slice(0, 8).join(', ')} and ${w.values.length - 8} more` : w.values.join(', ');
/** Held; failed (the wave halted or parked on it); else not run to a verdict (interrupted, or the operator went on past it). */
const analysisOf = (w: Wave) =>
  w.analysis
    ? `${w.analysis.passed ? 'held' : w.outcome === 'halted' || w.outcome === 'parked' ? 'failed' : 'not run'}: ${w.analysis.text}`
    : '';

/** The Waves section of the summary; then the heading of its step table, unless `steps` is false. */
export function wavesMarkdown(report: Report, steps = true): string[] {
  const rollout = report.rollout;
  if (!rollout) return [];
  const out = ['### Waves', ''];
  if (rollout.parked)
    out.push(`**Parked at wave ${rollout.parked.wave}: waiting for ${cell(rollout.parked.reason)}**`, '');
  if (rollout.halted)
    out.push(
      `**The rollout halted at wave ${rollout.halted.wave}**: ${cell(rollout.halted.reason)}. ${HALTED_AFTER}`,
      '',
    );
  out.push(
    `| Wave | ${cell(rollout.over)} | Outcome | Failed | Budget | Analysis after it |`,
    '|---|---|---|---|---|---|',
  );
  for (const w of rollout.waves)
    out.push(
      `| ${w.wave} | ${cell(valuesOf(w))} | ${WORDS[w.outcome]} | ${cell(w.failed.join(', '))} | ${w.budget} | ${cell(analysisOf(w))} |`,
    );
  out.push('', ...(steps ? ['### Steps', ''] : []));
  return out;
}

/** The headline of a halted rollout, for the HTML report's header; '' when it did not halt. */
export function haltHtml(report: Report): string {
  const halted = report.rollout?.halted;
  const parked = report.rollout?.parked;
  if (parked) return `<p><strong>Parked at wave ${parked.wave}: waiting for ${h(parked.reason)}</strong></p>\n`;
  return halted
    ? `<p><strong>The rollout halted at wave ${halted.wave}</strong>: ${h(halted.reason)}. ${HALTED_AFTER}</p>\n`
    : '';
}

/** The Waves section of the HTML report; '' without a rollout. */
export function wavesHtml(report: Report): string {
  const rollout = report.rollout;
  if (!rollout) return '';
  const rows = rollout.waves.map(
    (w) =>
      `<tr><td>${w.wave}</td><td>${h(valuesOf(w))}</td><td>${h(WORDS[w.outcome])}</td><td>${h(w.failed.join(', '))}</td><td>${w.budget}</td><td>${h(analysisOf(w))}</td></tr>`,
  );
  return `<h2>Waves</h2>\n<table>\n<thead><tr><th>Wave</th><th>${h(rollout.over)}</th><th>Outcome</th><th>Failed</th><th>Budget</th><th>Analysis after it</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>\n`;
}
