// A reader of a kept run (report JOURNAL, report --store, report --merge) shows the operator's
// words kept with it: a decision's reason, a sharded run's abort. One given from a shell without
// the pipeline's secrets is kept as given (app/reason-secrets.ts said so then). The reader masks
// it with the secrets it knows, as the run that goes on does: those of the pipeline the run named,
// read from here, their values from this environment. A pipeline that cannot be read here (another
// checkout) teaches nothing: the words are shown as they were kept.
import { resolve } from 'node:path';
import type { JournalState } from '../journal/read.ts';
import { releaseOf } from '../journal/release.ts';
import type { Report } from '../report/model.ts';
import { maskDecisions, maskInstances, maskRollout, maskRun } from '../runner/mask-model.ts';
import type { RunResult } from '../runner/result.ts';
import type { RolloutResult } from '../runner/rollout-result.ts';
import type { Masker } from '../runner/masker.ts';
import { teachSecrets } from './journal-setup.ts';
import { loadPipelineFile } from './pipeline-input.ts';

type ReaderIO = Parameters<typeof loadPipelineFile>[1] & { cwd: string };

/** Whether a report holds an operator's words: a decision's reason, or a halt (an abort says who and why). */
const holdsOperatorWords = (report: Report): boolean =>
  report.decisions.some((d) => d.reason) || Boolean(report.rollout?.halted);

/** Teaches `masker` the secrets this environment holds of the pipeline `file` (as the run named it, from `io.cwd`), when the run holds an operator's `words`. */
export async function teachReaderSecrets(file: string, words: boolean, io: ReaderIO, masker: Masker): Promise<void> {
  if (words)
    await loadPipelineFile(resolve(io.cwd, file), io, { readBack: new Set(), checkEnv: false }).then(
      ({ pipeline }) => teachSecrets(pipeline, io.env, masker),
      () => undefined,
    );
}

/** The release a journal records, as every report renders it, masked with the secrets this reader knows when an operator's reason is kept in it. */
export async function keptRelease(state: JournalState, io: ReaderIO, masker: Masker): Promise<RunResult> {
  await teachReaderSecrets(
    state.runs.at(-1)!.file,
    state.decided.some((d) => d.reason),
    io,
    masker,
  );
  return maskRun(masker, releaseOf(state));
}

/** A fleet's report (merged, or a sharded run's), masked through its model as a run's result is, when it holds an operator's words. */
export async function keptFleetReport(report: Report, io: ReaderIO, masker: Masker): Promise<Report> {
  if (!holdsOperatorWords(report)) return report;
  await teachReaderSecrets(report.pipeline.file, true, io, masker);
  const rollout = report.rollout && (maskRollout(masker, report.rollout as RolloutResult) as Report['rollout']);
  return {
    ...report,
    steps: maskInstances(masker, report.steps),
    rollout,
    decisions: maskDecisions(masker, report.decisions),
  };
}
