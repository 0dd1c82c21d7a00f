// The renderings of a run, from a result whose secrets are already masked as values: the report
// model built once, whichever edge asks (the files of formats.ts, the job summary, the PR
// comment). Nothing here masks text (a secret `true` would turn `"success": true` into invalid
// JSON); the result it gets holds no secret.
import { buildReport, type Report } from './model.ts';
import { renderMarkdown } from './markdown.ts';
import type { RunResult } from '../runner/result.ts';

export interface Renderings {
  report: Report;
  /** `fullReport` names where the full report is, for the note when parts are cut. */
  summary: (fullReport?: string) => string;
}

export function renderings(masked: RunResult): Renderings {
  // Built when a rendering is first asked for: a run that writes no report builds none.
  let built: Report | undefined;
  const report = () => (built ??= buildReport(masked));
  return {
    get report() {
      return report();
    },
    summary: (fullReport) => renderMarkdown(report(), { fullReport }),
  };
}
