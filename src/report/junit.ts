// JUnit XML (--junit): one testcase per step instance; failures with message and detail; skipped
// and cancelled steps marked skipped. Valid against Jenkins' junit-10.xsd. Names are stable and
// unique, so test tabs (GitLab, Jenkins, Azure) keep each step's history: the classname is the
// pipeline file (pipelines/release.yml -> pipelines.release), the name the step's id (or its
// position) with its matrix values (an analysis round's with its wave and round: it runs the gate
// again). An instance done in an earlier run says so in <system-out>. A failure continue-on-error
// let pass is not a <failure>: the run succeeded, and so does the build; it is told in
// <system-err>. junit-10.xsd has no `file` attribute on testcase: the file is on the testsuite.
import { errorWords } from './failure-list.ts';
import { fleetPhrase, noReportNote } from './fleet.ts';
import { doubtNote, IN_DOUBT_NOTE, limitedTo, namedRunNotes, type Report } from './model.ts';
import { SliceJoiner } from '../text/slices.ts';
import { visibleBidi } from '../text/escape.ts';
import type { WaysOn } from '../ways-on.ts';

function attr(text: string): string {
  return stripInvalid(text)
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    .replace(/\n/g, '&#10;');
}

function body(text: string): string {
  return stripInvalid(text).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/**
 * Control characters but tab, LF and CR dropped: the C0 ones XML 1.0 cannot hold, and DEL and the
 * C1 controls (U+007F to U+009F) it allows but discourages: a test view that shows a failure in a
 * terminal would act on them (U+009B is CSI, U+009D OSC, U+0090 DCS), and XML 1.1 forbids them
 * raw. U+FFFE and U+FFFF dropped too; bidi controls made visible. The masker's view drops each of
 * them before it looks for a secret (text/decoded-view.ts). A lone surrogate is U+FFFD, as UTF-8
 * writes it, in the same pass: two halves a dropped character split are not joined again into the
 * character a secret holds.
 */
function stripInvalid(text: string): string {
  return visibleBidi(text).replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|(\p{Cs})/gu,
    (_, lone?: string) => (lone ? '\uFFFD' : ''),
  );
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function renderJunit(report: Report, ways?: WaysOn): string {
  // An instance in doubt is a failure to look at, whatever its outcome: the server may have applied it.
  const failing = (s: Report['steps'][number]) =>
    (s.outcome === 'failure' && !s.continuedOnError) || s.inDoubt !== null;
  const classname = report.pipeline.file
    .replace(/^\.\//, '')
    .replace(/\.ya?ml$/, '')
    .replace(/[\\/]/g, '.');
  // An instance of the fleet no job reported is a failure: its job died or never ran.
  const missing = report.merged?.noReport ?? [];
  // A sharded run read while its workers ran is not its result: one failure says so, so that no test view shows it green.
  const underWay = report.merged?.underWay;
  const failures = report.steps.filter(failing).length + missing.length + (underWay ? 1 : 0);
  const tests = report.steps.length + missing.length + (underWay ? 1 : 0);
  const skipped = report.steps.filter(
    (s) => !failing(s) && (s.outcome === 'skipped' || s.outcome === 'cancelled'),
  ).length;
  // A line or a few per instance: joined a slice at a time (text/slices.ts).
  const lines = new SliceJoiner('\n');
  lines.push(
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(report.pipeline.name)}" tests="${tests}" failures="${failures}" errors="0" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="${attr(report.pipeline.name)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}" timestamp="${attr(report.startedAt)}" file="${attr(report.pipeline.file)}">`,
  );
  const limited = limitedTo(report);
  const fleet = fleetPhrase(report);
  const properties = [
    ...(limited ? [['limited to', limited]] : []),
    ...(fleet ? [['merged from', fleet]] : []),
    ...namedRunNotes(report, ways).map((n) => [n.kind, n.text]),
  ];
  if (properties.length)
    lines.push(
      '    <properties>',
      ...properties.map(([k, v]) => `      <property name="${k}" value="${attr(v!)}"/>`),
      '    </properties>',
    );
  for (const instance of missing) {
    lines.push(
      `    <testcase name="${attr(`no report (${instance})`)}" classname="${attr(classname)}" time="0">`,
      `      <failure type="NO_REPORT" message="${attr(`${instance}: ${noReportNote(instance)}`)}"/>`,
      '    </testcase>',
    );
  }
  if (underWay)
    lines.push(
      `    <testcase name="under way (not the run's result)" classname="${attr(classname)}" time="0">`,
      `      <failure type="UNDER_WAY" message="${attr(`the run was under way at wave ${underWay.wave} when this report was read (${underWay.at}): read it again once its workers ended`)}"/>`,
      '    </testcase>',
    );
  for (const s of report.steps) {
    const label = `${s.id ?? `step-${s.step + 1}`}${
      s.matrix
        ? ` (${Object.entries(s.matrix)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(', ')})`
        : ''
    }${s.round === null ? '' : ` analysis after wave ${s.wave ?? '?'}, round ${s.round}`}`;
    const open = `    <testcase name="${attr(label)}" classname="${attr(classname)}" time="${seconds(s.durationMs ?? 0)}"`;
    // Done in an earlier run (a resume's, carried; a retried shard's site its earlier attempt ended): said so, not run now.
    const earlier =
      s.resume === 'earlier-run'
        ? `done in an earlier run${s.earlierRunAt ? ` (started ${s.earlierRunAt})` : ''}: not run again by this one`
        : '';
    // An instance in doubt is a failure whatever its outcome, the operator's decision said with it.
    if (s.outcome === 'success' && !failing(s) && !earlier) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (failing(s)) {
      const decided = s.decision ? doubtNote(s, ways) : '';
      // A write not sent again on the operator's word: its error is its call's past, its hint no advice now.
      const e = errorWords(s);
      const detail = [
        e?.message,
        decided,
        e?.hint ? `hint: ${e.hint}` : '',
        s.continuedOnError ? '(continue-on-error: the pipeline went on)' : '',
      ]
        .filter(Boolean)
        .join('\n');
      const message =
        s.inDoubt && (s.outcome !== 'cancelled' || s.decision)
          ? `${decided || 'in doubt'} (${IN_DOUBT_NOTE})${e ? `: ${e.message}` : ''}`
          : (s.error?.message ?? 'failed');
      lines.push(
        `      <failure type="${attr(s.inDoubt && s.decision?.decision === 'skip' ? 'IN_DOUBT' : (s.error?.code ?? 'STEP_FAILED'))}" message="${attr(message)}">${body(detail)}</failure>`,
      );
    } else if (s.outcome === 'skipped' || s.outcome === 'cancelled') {
      lines.push(
        `      <skipped message="${attr(s.outcome === 'cancelled' ? (s.error?.message ?? 'cancelled') : 'skipped: its condition was false')}"/>`,
      );
    }
    lines.push(
      `      <system-out>${body([`${s.name} (${s.uses})`, s.figures ?? '', earlier].filter(Boolean).join('\n'))}</system-out>`,
    );
    if (s.outcome === 'failure' && s.continuedOnError)
      lines.push(
        `      <system-err>${body(`failed, and continue-on-error let the pipeline go on: ${s.error?.message ?? ''}${s.error?.hint ? `\nhint: ${s.error.hint}` : ''}`)}</system-err>`,
      );
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.text()}\n`;
}
