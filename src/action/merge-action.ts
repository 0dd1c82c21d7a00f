// The root action's merge mode, for a final job after a fleet's jobs (`needs:`, `if: always()`):
// the JSON reports (or journals) they uploaded, downloaded as artifacts, become one report of the
// whole fleet (report/merge.ts): one job summary, one PR comment, the report files and outputs.
// Nothing is run and no server is called.
import { mkdtempSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { endOf, publisher } from '../app/channels/channel.ts';
import { reportFilesChannel } from '../app/channels/report-files.ts';
import type { AtomicFs } from '../app/atomic-write.ts';
import { webhookChannel, webhookUrl } from '../app/channels/webhook.ts';
import { readReportShard } from '../app/report-inputs.ts';
import { readTextFile } from '../read-text-file.ts';
import { ExitCode, UsageError } from '../errors.ts';
import { reportFilesAt } from '../report/formats.ts';
import { fleetPhrase, fleetRows } from '../report/fleet.ts';
import { outcomeWord } from '../report/model.ts';
import { mergeReports, type ReportShard } from '../report/merge.ts';
import { renderMarkdown } from '../report/markdown.ts';
import type { Masker } from '../runner/masker.ts';
import { indentLines } from '../text/neutralise.ts';
import { doubtsLine, undecidedDoubts } from '../runner/result.ts';
import { ACTION_WAYS } from './ways-on.ts';
import type { GitHubDeps } from './github-records.ts';
import { varsLines } from './inputs.ts';
import { actionDef } from './definitions.ts';
import { jobSummaryChannel, outputsChannel, prCommentChannel } from './channels.ts';
import { failNotWritten, warnNotWritten } from './action-end.ts';
import { journalKey } from '../journal/seal.ts';

export interface MergeDeps extends GitHubDeps {
  cwd: string;
  /** ENGINECTL_JOURNAL_KEY, when the journals merged are sealed. */
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT or SIGTERM: it stops a file's read (a FIFO whose writer stalls). */
  signal: AbortSignal;
  /** Every file under a directory (recursively), or undefined when the path is not a directory. */
  filesUnder(path: string): Promise<string[] | undefined>;
  /** Where the reports go (RUNNER_TEMP on a runner). */
  reportDir: string;
  /** The file system the report files are written with (tests pass a full disk); the real one when absent. */
  reportFs?: AtomicFs | undefined;
}

/** What merge mode reads: its reports, and where it publishes them. */
const MERGE_INPUTS = new Set(['merge', 'summary', 'pr-comment', 'webhook', 'github-token']);

/**
 * Inputs of a run that merge mode does not read (the pipeline and its selection, a dry run, a
 * Deployment, a journal or a store, an override, the server): given with merge (other than as
 * their default), refused, never ignored.
 */
const RUN_INPUTS = Object.keys(actionDef('enginectl').inputs).filter((name) => !MERGE_INPUTS.has(name));

export async function mergeAction(deps: MergeDeps, masker: Masker): Promise<number> {
  const { kit } = deps;
  const inputs = actionDef('enginectl').inputs;
  for (const name of RUN_INPUTS) {
    const given = kit.getInput(name).trim();
    const byDefault = inputs[name]?.default;
    // A boolean's default however it is spelt (False, FALSE), as a boolean input is read; dry-run: live is no default.
    const isDefault =
      given === byDefault ||
      ((byDefault === 'false' || byDefault === 'true') &&
        [byDefault, byDefault[0]!.toUpperCase() + byDefault.slice(1), byDefault.toUpperCase()].includes(given));
    if (given !== '' && !isDefault)
      throw new UsageError(
        'BAD_INPUT',
        `input merge: merges the reports of jobs that ran; it runs nothing, so input ${name} is not read`,
        {
          hint: `leave ${name} out of the merge job's with:, or run the pipeline in a job of its own`,
        },
      );
  }
  const hook = kit.getInput('webhook').trim();
  const webhook = hook === '' ? undefined : webhookUrl(hook, masker, 'input webhook', 'BAD_INPUT');
  const files = await reportFiles(varsLines(kit.getInput, 'merge'), deps);
  const shards: ReportShard[] = [];
  const warn = (m: string) => kit.warning(m, { title: 'enginectl' });
  // Each report named by its path in the workspace (the job's artifact), not the runner's absolute path.
  const shown = (file: string) => {
    const path = relative(deps.cwd, file);
    return path && !path.startsWith('..') && !isAbsolute(path) ? path : file;
  };
  // Read as the CLI reads a file it is named (read-text-file.ts): the first signal stops it.
  const { signal } = deps;
  const reader = { readFile: (path: string) => readTextFile(resolve(deps.cwd, path), { signal }), signal };
  for (const file of files)
    shards.push(await readReportShard(shown(file), reader, journalKey(deps.env), warn, ACTION_WAYS));
  const report = mergeReports(shards, { ways: ACTION_WAYS });
  for (const row of fleetRows(report))
    kit.info(
      `${row.status === 'success' ? '✔' : row.status === 'parked' ? '⏸' : '✖'} ${indentLines(row.label)}: ${row.status === 'no report' ? row.detail : `${row.status} (${row.detail})`}`,
    );
  // A line break in the name starts no line of its own (one passing for a site's): indented, as the CLI's.
  const name = indentLines(report.pipeline.name);
  kit.info(`fleet "${name}": ${outcomeWord(report)} (${fleetPhrase(report)})`);

  const dir = mkdtempSync(join(deps.reportDir, 'enginectl-fleet-'));
  const paths = reportFilesAt(join(dir, 'enginectl-fleet'));
  // Published as a run is: the report files, the job summary, one PR comment, the webhook, the outputs.
  const outFiles = reportFilesChannel(paths, { fs: deps.reportFs, ways: ACTION_WAYS });
  const failed = await publisher(
    [
      outFiles,
      jobSummaryChannel(kit, `${paths.json} (output report) and ${paths.html}`),
      // The fleet's comment is the pipeline's: a run of every instance would have written the same one.
      prCommentChannel(
        deps,
        report.pipeline.file,
        masker,
        'the job summary and the JSON/HTML reports of the merge job',
      ),
      ...(webhook
        ? [webhookChannel(webhook, { env: deps.env, signal: deps.signal, said: (line) => kit.info(line) })]
        : []),
      outputsChannel({ outputs: {} }, kit, {
        reportPath: paths.json,
        reportWritten: () => outFiles.written.includes(paths.json),
      }),
    ],
    { warn: (m) => kit.warning(m, { title: 'enginectl' }), mask: (text) => masker.mask(text) },
  ).ended(endOf(report, (o) => renderMarkdown(report, { ...o, ways: ACTION_WAYS })));
  warnNotWritten(kit, masker, failed);
  const doubts = undecidedDoubts(report.steps);
  if (report.outcome === 'success' && doubts.length === 0)
    return failed.length === 0 ? ExitCode.ok : failNotWritten(kit, masker, `fleet "${name}" succeeded`, failed);
  const missing = report.merged?.noReport ?? [];
  kit.setFailed(
    report.outcome === 'success' && doubts.length > 0
      ? `"${name}": ${doubtsLine(doubts, ACTION_WAYS)}`
      : `"${name}": ${report.outcome}${missing.length ? `; no report from ${missing.join(', ')}` : ''}`,
  );
  return ExitCode.failed;
}

const JOURNAL = '.journal.jsonl';

/**
 * The `merge` input's lines: a file, or a directory whose JSON reports (*.json) and journals
 * (*.journal.jsonl, as the action names them), at any depth, are all taken. A journal beside its
 * own run's report (the same name but for .json) is that run's: the report is taken, once.
 */
async function reportFiles(lines: string[], deps: MergeDeps): Promise<string[]> {
  if (lines.length === 0)
    throw new UsageError('BAD_INPUT', 'input merge: no report named', {
      hint: "merge: reports (the directory the jobs' report artifacts were downloaded to), or one file per line",
    });
  const files: string[] = [];
  for (const line of lines) {
    const path = resolve(deps.cwd, line);
    const under = await deps.filesUnder(path);
    if (under === undefined) files.push(path);
    else {
      const reports = under.filter((f) => f.endsWith('.json'));
      const taken = new Set(reports);
      const journals = under.filter((f) => f.endsWith(JOURNAL) && !taken.has(`${f.slice(0, -JOURNAL.length)}.json`));
      const all = [...reports, ...journals].sort();
      if (all.length === 0)
        throw new UsageError(
          'BAD_INPUT',
          `input merge: ${line} holds no JSON report (*.json) or journal (*${JOURNAL})`,
          { hint: "download the jobs' report artifacts there (actions/download-artifact), or name the files" },
        );
      files.push(...all);
    }
  }
  return files;
}
