// Reads each step's outcome back out of every rendering a user reviews (JSON, JUnit, the Markdown
// summary, HTML), so a test can say "this step is a failure in every report", not only in one.
import assert from 'node:assert/strict';
import { ICONS } from '../../src/report/model.ts';

export interface ReportTexts {
  json: string;
  junit: string;
  summary: string;
  html: string;
}

const BY_ICON = new Map(Object.entries(ICONS).map(([outcome, icon]) => [icon, outcome]));

/**
 * The status of each step row, in order, as each rendering shows it: its outcome, or "in doubt"
 * for an instance stopped after its call left.
 */
export function outcomesIn(texts: ReportTexts): Record<keyof ReportTexts, string[]> {
  const json = (JSON.parse(texts.json) as { steps: { outcome: string; inDoubt?: unknown }[] }).steps.map((s) =>
    s.inDoubt && s.outcome === 'cancelled' ? 'in doubt' : s.outcome,
  );
  const junit = [...texts.junit.matchAll(/<testcase\b[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => {
    const inner = m[2] ?? '';
    if (inner.includes('<failure type="IN_DOUBT"')) return 'in doubt';
    if (inner.includes('<failure')) return 'failure';
    // A failure continue-on-error let pass is a passed test with the failure told in system-err.
    if (inner.includes('<system-err>failed, and continue-on-error')) return 'failure';
    const skipped = /<skipped message="(\w+)/.exec(inner);
    return skipped ? skipped[1]! : 'success';
  });
  const summary = [...texts.summary.matchAll(/^\| (\S+) \| /gm)]
    .map((m) => BY_ICON.get(m[1]!))
    .filter((o): o is string => o !== undefined);
  const html = [...texts.html.matchAll(/<tr><td><span class="badge"[^>]*>(\w+(?: doubt)?)<\/span>/g)].map((m) => m[1]!);
  return { json, junit, summary, html };
}

/** Every rendering shows exactly these outcomes, in this order. */
export function assertOutcomes(texts: ReportTexts, expected: string[], context = ''): void {
  for (const [rendering, outcomes] of Object.entries(outcomesIn(texts))) {
    assert.deepEqual(outcomes, expected, `${context}${context ? ': ' : ''}the ${rendering} report`);
  }
}
