// The Markdown summary put where the CI system shows it: appended to the file it reads (GitHub),
// or written to a file it is told of as the job finishes (Azure's uploadsummary), then the lines
// that end the job (its summary upload, its result): what the CI summary channel (channels/ci.ts) publishes.
// GitHub refuses a step's summary file whole past 1 MiB, whoever wrote it: what the file holds
// already (an earlier run in the same step, another tool) is counted, the summary fitted in what
// is left (and said so), and when too little is left it is left out, with a warning.
import { appendFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CiEnd, CiSystem } from '../ci/system.ts';
import { cutMarkdown } from '../report/markdown-cut.ts';
import { SUMMARY_BUDGET, SUMMARY_LIMIT } from '../report/markdown.ts';
import type { Env } from '../runner/scope.ts';

export interface JobSummaryDone {
  /** The lines that end the job (printed by the edge). */
  finish: string[];
  /** What could not be written, as "job summary: REASON". */
  problem?: string;
  /** Said in the log: the summary fitted in the room another summary left. */
  said?: string;
  /** A warning: no room was left, the summary is left out. */
  warning?: string;
}

/** Less room than this, and the summary is left out rather than cut to nothing. */
const MIN_ROOM = 4 * 1024;

const kib = (bytes: number) => Math.floor(bytes / 1024);

export async function publishJobSummary(
  ci: CiSystem,
  env: Env,
  markdown: (limit?: number) => string,
  end: CiEnd,
  options: { summaryFile?: string | undefined },
): Promise<JobSummaryDone> {
  let summaryFile = options.summaryFile;
  let done: Omit<JobSummaryDone, 'finish'> = {};
  const place = ci.summary(env, tmpdir());
  if (place) {
    try {
      if ('append' in place) done = await appendWithin(place.append, markdown);
      else if (!summaryFile) {
        summaryFile = join(place.uploadFrom, `enginectl-summary-${process.pid}.md`);
        await writeFile(summaryFile, markdown());
      }
    } catch (error) {
      done = { problem: `job summary: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
    }
  }
  return { finish: ci.finish(end, summaryFile), ...done };
}

/** Appended to `path` within the step's budget, less what the file holds already (the actions' summary goes through it too). */
export async function appendWithin(
  path: string,
  markdown: (limit?: number) => string,
): Promise<Omit<JobSummaryDone, 'finish'>> {
  const held = (await stat(path).catch(() => undefined))?.size ?? 0;
  const room = SUMMARY_BUDGET - held;
  const already = `job summary: $GITHUB_STEP_SUMMARY held ${kib(held)} KiB already`;
  if (room < MIN_ROOM)
    return {
      warning: `${already}, of GitHub's ${kib(SUMMARY_LIMIT)} KiB: this run's summary is left out (its reports hold it)`,
    };
  // Rendered for the whole budget first: again for the room left only when that does not fit.
  let text = markdown();
  let said: string | undefined;
  if (Buffer.byteLength(text) > room) {
    text = markdown(room);
    said = `${already}: this summary was fitted in the ${kib(room)} KiB left`;
  }
  // Whatever rendered it, never past the room (a renderer that knows no limit).
  await appendFile(
    path,
    cutMarkdown(text, room, (at) => `The summary was cut at ${at} KiB: the reports hold it whole.`),
  );
  return said ? { said } : {};
}
