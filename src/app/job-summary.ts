// The Markdown summary put where the CI system shows it: appended to the file it reads (GitHub),
// or written to a file it is told of as the job finishes (Azure's uploadsummary), then the lines
// that end the job (its summary upload, its result): what the CI summary channel (channels/ci.ts) publishes.
import { appendFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CiSystem } from '../ci/system.ts';
import type { Env } from '../runner/scope.ts';

export interface JobSummaryDone {
  /** The lines that end the job (printed by the edge). */
  finish: string[];
  /** What could not be written, as "job summary: REASON". */
  problem?: string;
}

export async function publishJobSummary(
  ci: CiSystem,
  env: Env,
  markdown: () => string,
  outcome: 'success' | 'failure' | 'cancelled' | 'under-way',
  options: { summaryFile?: string | undefined; withIssues?: boolean },
): Promise<JobSummaryDone> {
  let summaryFile = options.summaryFile;
  let problem: string | undefined;
  const place = ci.summary(env, tmpdir());
  if (place) {
    try {
      if ('append' in place) await appendFile(place.append, markdown());
      else if (!summaryFile) {
        summaryFile = join(place.uploadFrom, `enginectl-summary-${process.pid}.md`);
        await writeFile(summaryFile, markdown());
      }
    } catch (error) {
      problem = `job summary: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    }
  }
  return { finish: ci.finish(outcome, summaryFile, options.withIssues), ...(problem ? { problem } : {}) };
}
