// `enginectl report JOURNAL`: the reports of a run rendered from its journal, also of a run that
// was killed: an instance whose call was sent and never answered shows as in doubt.
// `enginectl report --merge FILE...`: the reports (or journals) of a fleet's jobs as one report.
import { checkRunId } from '../../journal/replica.ts';
import { REPORT_OPTIONS, REPORT_OPTIONS_HELP, reportPathsOf } from '../../report/formats.ts';
import { checkOwnFiles, named } from '../../app/own-files.ts';
import { preparePaths, REPORT_NOT_WRITTEN, reportOutputs } from '../../app/report-files.ts';
import { readReportShard } from '../../app/report-inputs.ts';
import { endOf, publisher } from '../../app/channels/channel.ts';
import { reportFilesChannel } from '../../app/channels/report-files.ts';
import { ciSummaryChannel } from '../../app/channels/ci.ts';
import { webhookChannel, webhookUrl } from '../../app/channels/webhook.ts';
import type { Masker } from '../../runner/masker.ts';
import { ciMasker } from '../ci-masker.ts';
import { keptFleetReport, keptRelease } from '../../app/reader-secrets.ts';
import { doubtsLine, undecidedDoubts } from '../../runner/result.ts';
import { CI_NAMES } from '../../ci/detect.ts';
import { renderMarkdown } from '../../report/markdown.ts';
import { ExitCode, UsageError } from '../../errors.ts';
import { fleetLines } from '../../report/fleet-lines.ts';
import { mergeReports } from '../../report/merge.ts';
import { checkMergeFiles } from '../../report/merge-check.ts';
import type { Report } from '../../report/model.ts';
import { renderings } from '../../report/renderings.ts';
import { neutralise } from '../../text/neutralise.ts';
import { parseCommandArgs } from '../args.ts';
import { chooseCi, type CliIO } from '../io.ts';
import { readEndedJournal } from '../journal-file.ts';
import { journalKey } from '../../journal/seal.ts';
import { RunLog } from '../../log/run-log.ts';
import { summaryLine } from '../../report/summary-line.ts';
import { terminalSink } from '../../log/sink.ts';
import { RUN_VARIABLE, storeToRead } from '../../app/stored-run.ts';
import { shardedReport } from '../../app/shard-report.ts';
import { notShardedRun } from '../../app/not-sharded.ts';
import { realClock } from '../../app/clock.ts';

export const REPORT_HELP = `Usage: enginectl report JOURNAL [options]
       enginectl report --store URL --run ID [options]
       enginectl report --merge FILE... [options]
       enginectl report --merge --store URL --run ID [options]

Renders the reports of a run from its journal (run --journal F), also of a run that was killed:
a step whose call was sent and never answered is "in doubt" (the server may have applied it).
Prints each step's outcome; the reports are written where the options say.

With --merge, the JSON reports (--report-json) or journals of a fleet's jobs (one per site,
run --only site=X) become one report of the whole fleet: every instance once, a row per job,
and each value of the fleet that no report holds an instance of as "no report" (its job died or
never ran), which fails the fleet. Each job's outcome is read from its steps. Reports of
other files, --var values or inventory are another pipeline's, refused unless --force.

With --merge --store URL --run ID, the sharded run of that id (enginectl shard) as one report:
every site of its manifest, each rendered from its run's journal in the store; a site no worker
started, and a shard no worker registered, are "no report" and fail it. Without a store, merge
the workers' own JSON reports with --expect-shards N: each site and each shard no report holds
is "no report"; a site one worker left (its lease lapsed) and another resumed is the resumer's.

Options:
${REPORT_OPTIONS_HELP}
  --store URL        with --run: the run store the run is kept in (also ENGINECTL_STORE)
  --run ID           render the run of that id from the run store, as from its journal
                     (with --merge and no file: also ENGINECTL_RUN, as the workers read it)
  --merge            merge the reports or journals named (reports of one pipeline)
  --force            with --merge: merge reports of different pipelines too
  --expect-shards N  with --merge FILE...: the files are the JSON reports of a sharded run's workers
                     (run --shard I/N --report-json F); each of shards 1 to N with no report is
                     named and fails the fleet
  --webhook URL      POST the JSON report (as --report-json writes it) to URL; the URL is a secret
                     (masked everywhere); a failure is a warning, never the exit code
  --ci NAME          put the summary where a CI system shows it: ${CI_NAMES.join(', ')}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 the run (or every job of the fleet) succeeded, 1 it failed, was cancelled or
killed, a step is in doubt, a job has no report or a sharded run is still under way, 2 invalid
input.`;

/**
 * What `enginectl report` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  ...REPORT_OPTIONS,
  merge: { type: 'boolean' },
  force: { type: 'boolean' },
  store: { type: 'string' },
  run: { type: 'string' },
  ci: { type: 'string' },
  webhook: { type: 'string' },
  'expect-shards': { type: 'string' },
} as const;

export async function reportCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('report', args, OPTIONS);
  if (values.help) {
    io.stdout(`${REPORT_HELP}\n`);
    return ExitCode.ok;
  }
  // The webhook's URL is a secret, checked and registered (with the CI's masking too) before anything is read or printed.
  const masker = ciMasker(chooseCi(io, values.ci), (line) => io.stdout(`${line}\n`));
  const webhook =
    values.webhook === undefined ? undefined : webhookUrl(values.webhook, masker, '--webhook', 'BAD_ARGUMENTS');
  const publishing = { webhook, masker };
  if (values.force && !values.merge) throw new UsageError('BAD_ARGUMENTS', 'report: --force goes with --merge');
  // A sharded run's report: --run, or ENGINECTL_RUN (as its workers read it) when no report is named.
  const run = values.run ?? (values.merge && positionals.length === 0 ? io.env[RUN_VARIABLE] : undefined);
  const expectShards = expectedShards(values['expect-shards'], values.merge === true, run !== undefined);
  // The journal or the reports read are never written over by a report.
  const role = values.merge ? 'a report to merge' : 'the journal (JOURNAL)';
  checkOwnFiles(
    reportOutputs(reportPathsOf(values), io.cwd),
    positionals.map((file) => named(role, file, io.cwd)),
  );
  if (values.merge && run !== undefined) return mergeSharded(positionals, { ...values, run }, io, publishing);
  if (values.merge && values.store !== undefined && positionals.length === 0)
    throw new UsageError(
      'BAD_ARGUMENTS',
      `report --merge --store: which sharded run? give --run ID (or ${RUN_VARIABLE})`,
      {
        hint: 'enginectl report --merge --store URL --run ID, the id enginectl shard printed (run ID in URL)',
      },
    );
  if (values.merge) return merge(positionals, { ...values, expectShards }, io, publishing);
  const { state } = await readEndedJournal('report', positionals, values, io);
  // An operator's reason kept as given (decided from a shell without the secrets), masked as the run masks it.
  const result = await keptRelease(state, io, masker);
  const terminal = new RunLog(terminalSink(io.stdout));
  result.steps.forEach((run) => terminal.stepFinished(run, `[${run.step + 1}]`));
  const rendered = renderings(result);
  io.stdout(`${summaryLine(rendered.report)}\n`);
  printDoubts(rendered.report, io);
  return write(
    () => rendered.report,
    values,
    io,
    publishing,
    result.outcome === 'success' && undecidedDoubts(result.steps).length === 0,
  );
}

/** report --merge --store URL --run ID: a sharded run's one result, from the store alone. */
async function mergeSharded(
  files: string[],
  values: { store?: string | undefined; run?: string | undefined } & Record<string, unknown>,
  io: CliIO,
  publishing: Publishing,
): Promise<number> {
  if (files.length > 0)
    throw new UsageError('BAD_ARGUMENTS', 'report --merge --run ID reads the sharded run from the store: name no file');
  // Only read: a store that is not there is a wrong URL (as runs and lease say), never one to make.
  const why = '--run names a sharded run of a run store: ';
  const store = await storeToRead('report', values.store, io.env, io.cwd, why, io.signal);
  const run = checkRunId(values.run!);
  const read = shardedReport(store, run, journalKey(io.env), (io.clock ?? realClock()).now());
  // A run of the store that is not sharded is told as what it is.
  const { report } = await read.catch((e: unknown) => notShardedRun(store, run, e));
  return publishFleet(report, values, io, publishing);
}

/** A fleet's report: its rows and line printed, its files and summary written; 0 when every job (or site) succeeded. */
async function publishFleet(read: Report, values: Record<string, unknown>, io: CliIO, publishing: Publishing) {
  const report = await keptFleetReport(read, io, publishing.masker);
  printFleet(report, io, publishing.masker);
  return write(
    () => report,
    values,
    io,
    publishing,
    // A sharded run read while its workers ran (outcome under-way) is not its result yet.
    report.outcome === 'success' && undecidedDoubts(report.steps).length === 0,
  );
}

/** The fleet's rows and its line, an operator's words in them masked (app/reader-secrets.ts). */
function printFleet(report: Report, io: CliIO, masker: Masker): void {
  for (const line of fleetLines(report)) io.stdout(`${masker.mask(line)}\n`);
  printDoubts(report, io);
}

/** A success with a write left in doubt exits 1: said why, as run says it. */
function printDoubts(report: Report, io: CliIO): void {
  const doubts = undecidedDoubts(report.steps);
  if (report.outcome === 'success' && doubts.length > 0) io.stdout(`✖ ${doubtsLine(doubts)}\n`);
}

async function merge(
  files: string[],
  values: Record<string, unknown> & { expectShards: number | undefined },
  io: CliIO,
  publishing: Publishing,
): Promise<number> {
  checkMergeFiles(files, io.cwd);
  const shards = [];
  const warn = (m: string) => io.stderr(`enginectl: warning: ${neutralise(m)}\n`);
  for (const file of files) shards.push(await readReportShard(file, io, journalKey(io.env), warn));
  const report = mergeReports(shards, { force: values.force === true, expectShards: values.expectShards });
  return publishFleet(report, values, io, publishing);
}

/** --expect-shards N: with --merge FILE... only (a store's manifest knows its shards). */
function expectedShards(given: string | undefined, merge: boolean, fromStore: boolean): number | undefined {
  if (given === undefined) return undefined;
  if (!merge || fromStore)
    throw new UsageError(
      'BAD_ARGUMENTS',
      `report: --expect-shards goes with --merge FILE... (${fromStore ? 'with --store and --run the manifest knows the shards' : "it merges the workers' reports"})`,
      { hint: 'enginectl report --merge shard-*.json --expect-shards 8' },
    );
  if (!/^[1-9][0-9]*$/.test(given))
    throw new UsageError('BAD_ARGUMENTS', `report: --expect-shards ${given}: give the number of shards (1 or more)`, {
      hint: 'as enginectl shard --shards said: --expect-shards 8',
    });
  return Number(given);
}

/** Where a report is published besides its files and the CI's summary: --webhook, with the masker that knows its URL. */
interface Publishing {
  webhook: URL | undefined;
  masker: Masker;
}

/** The report files asked for, then, under a CI system, the summary where it shows one (GitHub's job summary, Azure's run page), through one publisher. */
async function write(
  report: () => Report,
  values: Record<string, unknown>,
  io: CliIO,
  { webhook, masker }: Publishing,
  succeeded: boolean,
): Promise<number> {
  const paths = await preparePaths(reportPathsOf(values), io.cwd);
  const print = (line: string) => io.stdout(`${line}\n`);
  const warnings: string[] = [];
  const publish = publisher(
    [
      reportFilesChannel(paths, { said: (p) => print(`report: ${neutralise(p)}`) }),
      ...(webhook ? [webhookChannel(webhook, { env: io.env, signal: io.signal, said: print })] : []),
      ciSummaryChannel(chooseCi(io), io.env, print, {
        summaryFile: paths.summary,
        fullReport: paths.json ?? paths.html,
      }),
    ],
    { warn: (m) => warnings.push(m), mask: (text) => masker.mask(text) },
  );
  const failed = await publish.ended(endOf(report(), (o) => renderMarkdown(report(), { fullReport: o.fullReport })));
  for (const f of failed) io.stderr(`enginectl: ${REPORT_NOT_WRITTEN.code}: ${neutralise(f)}\n`);
  for (const w of warnings) io.stderr(`enginectl: warning: ${neutralise(w)}\n`);
  // An in-doubt call the operator decided about is a decision, shown as such; an undecided one fails.
  return succeeded && failed.length === 0 ? ExitCode.ok : ExitCode.failed;
}
