// JUnit XML (--junit): one testcase per step instance; failures with message and detail; skipped
// and cancelled steps marked skipped. Valid against Jenkins' junit-10.xsd.
import { IN_DOUBT_NOTE, type Report } from './model.ts';

function attr(text: string): string {
  return stripInvalid(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/\n/g, '&#10;');
}

function body(text: string): string {
  return stripInvalid(text).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/** Characters XML 1.0 cannot hold (control characters but tab, LF, CR). */
function stripInvalid(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function renderJunit(report: Report): string {
  // An instance in doubt is a failure to look at, whatever its outcome: the server may have applied it.
  const failing = (s: Report['steps'][number]) => s.outcome === 'failure' || s.inDoubt !== null;
  const failures = report.steps.filter(failing).length;
  const skipped = report.steps.filter((s) => !failing(s) && (s.outcome === 'skipped' || s.outcome === 'cancelled')).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(report.pipeline.name)}" tests="${report.steps.length}" failures="${failures}" errors="0" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="${attr(report.pipeline.name)}" tests="${report.steps.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}" timestamp="${attr(report.startedAt)}" file="${attr(report.pipeline.file)}">`,
  ];
  for (const s of report.steps) {
    const open = `    <testcase name="${attr(s.name)}" classname="${attr(`${report.pipeline.name}.${s.uses}`)}" time="${seconds(s.durationMs)}"`;
    if (s.outcome === 'success' && !s.continuedOnError) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (failing(s)) {
      const detail = [s.error?.message, s.error?.hint ? `hint: ${s.error.hint}` : '', s.continuedOnError ? '(continue-on-error: the pipeline went on)' : ''].filter(Boolean).join('\n');
      const message = s.inDoubt && s.outcome !== 'cancelled' ? `in doubt (${IN_DOUBT_NOTE}): ${s.error?.message ?? ''}` : (s.error?.message ?? 'failed');
      lines.push(`      <failure type="${attr(s.error?.code ?? 'STEP_FAILED')}" message="${attr(message)}">${body(detail)}</failure>`);
    } else {
      lines.push(`      <skipped message="${attr(s.outcome === 'cancelled' ? s.error?.message ?? 'cancelled' : 'skipped: its condition was false')}"/>`);
    }
    if (s.figures) lines.push(`      <system-out>${body(s.figures)}</system-out>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}
