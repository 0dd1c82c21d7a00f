// Renderings of a run: pure functions from the report model to text; writing is at the edge.
export { buildReport, reportJsonSchema, REPORT_VERSION, type Report, type ReportStep } from './model.ts';
export { renderJson } from './json.ts';
export { renderMarkdown, SUMMARY_LIMIT } from './markdown.ts';
export { renderJunit } from './junit.ts';
export { renderHtml } from './html.ts';
export { renderings, type Renderings } from './renderings.ts';
