// `enginectl report JOURNAL`: the reports of a run rendered from its journal, also of a run that
// was killed: an instance whose call was sent and never answered shows as in doubt.
import { REPORT_OPTIONS, REPORT_OPTIONS_HELP, reportPathsOf } from '../../report/formats.ts';
import { releaseOf } from '../../journal/release.ts';
import { preparePaths, REPORT_NOT_WRITTEN, writeReports } from '../../app/report-files.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { renderings } from '../../report/renderings.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';
import { readJournalFile } from '../journal-file.ts';
import { RunLog, summaryLine } from '../../log/run-log.ts';
import { terminalSink } from '../../log/sink.ts';

export const REPORT_HELP = `Usage: enginectl report JOURNAL [options]

Renders the reports of a run from its journal (run --journal F), also of a run that was killed:
a step whose call was sent and never answered is "in doubt" (the server may have applied it).
Prints each step's outcome; the reports are written where the options say.

Options:
${REPORT_OPTIONS_HELP}
  -h, --help         show this help

Exit codes: 0 the run succeeded, 1 it failed, was cancelled or killed, or a step is in doubt,
2 invalid input.`;

export async function reportCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('report', args, {
    ...REPORT_OPTIONS,
  });
  if (values.help) {
    io.stdout(`${REPORT_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 1) throw new UsageError('BAD_ARGUMENTS', `report: expected one JOURNAL, got ${positionals.length}`, { hint: 'enginectl report run.journal.jsonl --html report.html' });
  const path = positionals[0]!;
  const state = await readJournalFile('report', path, io);
  const paths = await preparePaths(reportPathsOf(values), io.cwd);
  const result = releaseOf(state);
  const terminal = new RunLog(terminalSink(io.stdout));
  result.steps.forEach((run) => terminal.stepFinished(run, `[${run.step + 1}]`));
  io.stdout(`${summaryLine(result)}\n`);
  const { written, failed } = await writeReports(() => renderings(result).report, paths);
  for (const p of written) io.stdout(`report: ${p}\n`);
  for (const f of failed) io.stderr(`enginectl: ${REPORT_NOT_WRITTEN.code}: ${f}\n`);
  // An in-doubt call the operator decided about is a decision, shown as such; an undecided one fails.
  return result.outcome === 'success' && failed.length === 0 && !result.steps.some((s) => s.inDoubt && !s.decision) ? ExitCode.ok : ExitCode.failed;
}
