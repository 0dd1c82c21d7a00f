// Every rendering of a run, from a result whose secrets are already masked as values: built
// once, the same text whichever edge writes it. Nothing here masks text (a secret `true` would
// turn `"success": true` into invalid JSON); the result it gets holds no secret.
import { buildReport, type Report } from './model.ts';
import { renderJson, reportJsonPieces } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { RunResult } from '../runner/result.ts';

export interface Renderings {
  report: Report;
  json: () => string;
  /** The JSON report in pieces, for writing without one big string. */
  jsonPieces: () => Iterable<string>;
  junit: () => string;
  /** `fullReport` names where the full report is, for the note when parts are cut. */
  summary: (fullReport?: string) => string;
  /** Loads the HTML renderer (and its Markdown parser) only when a run asks for HTML. */
  html: () => Promise<string>;
}

export function renderings(masked: RunResult): Renderings {
  // Built when a rendering is first asked for: a run that writes no report builds none.
  let built: Report | undefined;
  const report = () => (built ??= buildReport(masked));
  return {
    get report() {
      return report();
    },
    json: () => renderJson(report()),
    jsonPieces: () => reportJsonPieces(report()),
    junit: () => renderJunit(report()),
    summary: (fullReport) => renderMarkdown(report(), { fullReport }),
    html: async () => (await import('./html.ts')).renderHtml(report()),
  };
}
