// The JSON report: the model as it is, with a trailing newline.
import type { Report } from './model.ts';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
