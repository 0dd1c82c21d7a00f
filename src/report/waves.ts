// A rollout's waves as the Markdown summary shows them: a row per wave, its values, what became
// of it (done, failed within its budget, halted, not started), the analysis after it, and where
// the rollout halted (nothing is undone).
import { cell } from '../text/escape.ts';
import type { Report } from './model.ts';

const WORDS: Record<NonNullable<Report['rollout']>['waves'][number]['outcome'], string> = {
  done: '✅ done',
  'failed-within-budget': '⚠️ failed within budget',
  halted: '❌ halted',
  'not-started': '⏸️ not started',
  cancelled: '■ cancelled',
};

export function wavesMarkdown(report: Report): string[] {
  const rollout = report.rollout;
  if (!rollout) return [];
  const out = ['### Waves', ''];
  if (rollout.halted) out.push(`**The rollout halted at wave ${rollout.halted.wave}**: ${cell(rollout.halted.reason)}. Nothing was undone; the waves after it did not start.`, '');
  out.push(`| Wave | ${cell(rollout.over)} | Outcome | Failed | Budget | Analysis after it |`, '|---|---|---|---|---|---|');
  for (const w of rollout.waves) {
    const shown = w.values.length > 8 ? `${w.values.slice(0, 8).join(', ')} and ${w.values.length - 8} more` : w.values.join(', ');
    const analysis = w.analysis ? `${w.analysis.passed ? 'held' : 'failed'}: ${w.analysis.text}` : '';
    out.push(`| ${w.wave} | ${cell(shown)} | ${WORDS[w.outcome]} | ${cell(w.failed.join(', '))} | ${w.budget} | ${cell(analysis)} |`);
  }
  out.push('', '### Steps', '');
  return out;
}
