// The reports `report --merge` reads: each file a JSON report (--report-json) or a journal
// (--journal), told apart by content; a journal becomes the report of the release it records, and
// a file that opens as neither (a Markdown summary) is refused as such.
import { resolve } from 'node:path';
import { tornLine } from '../journal/read.ts';
import { refuseWhileLocked } from '../journal/lock.ts';
import { journalReport } from '../journal/release.ts';
import { interruptedRead, UsageError } from '../errors.ts';
import { undecodedNameHint } from '../file-name.ts';
import { Report, REPORT_VERSION } from '../report/model.ts';
import type { ReportShard } from '../report/merge.ts';
import { MAX_HELD_DEPTH, nestsDeeper } from '../text/bounded-json.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

/**
 * `warn` hears what a journal read as it is leaves out (its torn last line). A read `files.signal`
 * stops (SIGINT, SIGTERM: a FIFO whose writer stalls) is told as the interruption it is.
 */
export async function readReportShard(
  path: string,
  files: {
    readFile(path: string): Promise<string>;
    signal?: AbortSignal | undefined;
    /** Where a relative path is: a journal a live run writes (its lock held) is then refused, as report refuses it. */
    cwd?: string | undefined;
  },
  key: string | undefined,
  warn: (message: string) => void,
  /** How a journal's report names the ways on in its steps' hints (the CLI's flags by default). */
  ways: WaysOn = CLI_WAYS,
): Promise<ReportShard> {
  const { merging, mergedFiles } = ways;
  let text: string;
  try {
    text = await files.readFile(path);
  } catch (error) {
    throw (
      interruptedRead(files.signal, `${merging}: reading ${path}`, 'nothing was done') ??
      new UsageError(
        'BAD_REPORT',
        `${merging}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        { hint: undecodedNameHint(path, error) ?? `give ${mergedFiles}` },
      )
    );
  }
  const json = wholeJson(text);
  if (json === undefined && !opensAsJournal(text)) {
    throw new UsageError('BAD_REPORT', `${merging}: ${path} is neither ${ways.reportOrJournal}`, {
      hint: `give ${mergedFiles}, not a summary, HTML or JUnit file`,
    });
  }
  if (json === undefined) {
    // Its run still under way: its call in flight is not in doubt, its later steps still to come.
    if (files.cwd !== undefined) {
      const { warning } = refuseWhileLocked(resolve(files.cwd, path), 'enginectl report --merge');
      if (warning) warn(warning);
    }
    return { source: path, report: journalReport(text, path, key, (line) => warn(tornLine(path, line)), ways) };
  }
  // Merging and rendering walk the report: a value nested past any report's depth is refused first.
  if (nestsDeeper(json, MAX_HELD_DEPTH)) {
    throw new UsageError(
      'BAD_REPORT',
      `${merging}: ${path} is not a JSON report of this enginectl: it nests more than ${MAX_HELD_DEPTH} levels deep`,
      { hint: `give ${mergedFiles}, with the same enginectl version` },
    );
  }
  const parsed = Report.safeParse(json);
  if (parsed.success) return { source: path, report: parsed.data };
  refuseOtherVersion(path, json, ways);
  const issue = parsed.error.issues[0]!;
  throw new UsageError(
    'BAD_REPORT',
    `${merging}: ${path} is not a JSON report of this enginectl: ${issue.path.join('.') || '(top)'}: ${issue.message}`,
    { hint: `give ${mergedFiles}, with the same enginectl version` },
  );
}

/**
 * A report of a later reportVersion (a job of the fleet on a newer enginectl: a format that would
 * break this reader), or of none: refused saying so, not by the schema's first issue with it.
 */
function refuseOtherVersion(path: string, json: unknown, ways: WaysOn): void {
  const version =
    json !== null && typeof json === 'object' ? (json as { reportVersion?: unknown }).reportVersion : undefined;
  if (version === undefined)
    throw new UsageError(
      'BAD_REPORT',
      `${ways.merging}: ${path} is not a JSON report of this enginectl: it has no reportVersion`,
      { hint: `give ${ways.mergedFiles}` },
    );
  if (Number.isSafeInteger(version) && (version as number) > REPORT_VERSION)
    throw new UsageError(
      'BAD_REPORT',
      `${ways.merging}: ${path} is a JSON report of version ${version as number}, written by a newer enginectl than this one (which reads version ${REPORT_VERSION})`,
      {
        hint: 'merge the reports with that enginectl or a later one (it reads the reports of this one too); nothing was merged',
      },
    );
}

/** Whether the file's first line is a journal record (a JSON object with its `t`), damaged records after it or not. */
function opensAsJournal(text: string): boolean {
  const end = text.indexOf('\n');
  try {
    const first = JSON.parse(end < 0 ? text : text.slice(0, end)) as unknown;
    return first !== null && typeof first === 'object' && 't' in first;
  } catch {
    return false;
  }
}

/** The file as one JSON value, or undefined for a journal (one record per line, each with its `t`). */
function wholeJson(text: string): unknown {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && 't' in value ? undefined : value;
  } catch {
    return undefined;
  }
}
