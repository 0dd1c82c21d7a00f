// How an action ends besides its channels (channels.ts): every step's outputs as one value, its
// status, and a run refused before it started (invalid inputs or pipeline) as annotations on the
// file's lines, a summary, the documented outputs and its exit code; annotation paths relative to
// the checkout.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { RunDone } from '../app/run.ts';
import { REPORT_NOT_WRITTEN } from '../app/report-files.ts';
import { describeError, EnginectlError, ExitCode, exitCodeOf, Interrupted } from '../errors.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import { cutMarkdown } from '../report/markdown-cut.ts';
import { SUMMARY_BUDGET } from '../report/markdown.ts';
import type { Report } from '../report/index.ts';
import type { Masker } from '../runner/masker.ts';
import { indentLines } from '../text/neutralise.ts';
import { learnInvalidFileSecrets } from '../runner/file-secrets.ts';
import type { Env } from '../runner/scope.ts';
import { doubtsLine, parkedOf, undecidedDoubts } from '../runner/result.ts';
import type { Park } from '../runner/rollout-result.ts';
import type { ActionDef } from './definitions.ts';
import type { GitHubContext } from './github-context.ts';
import type { GitHubDeps } from './github-records.ts';
import { booleanInput } from './inputs.ts';
import { ACTION_WAYS } from './ways-on.ts';

/** Every step's outputs by id (step-N without one); a matrix step's as a list of instances. */
export function outputsOf(report: Report): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byStep = new Map<number, Report['steps']>();
  for (const s of report.steps) byStep.set(s.step, [...(byStep.get(s.step) ?? []), s]);
  for (const [index, runs] of byStep) {
    const key = runs[0]!.id ?? `step-${index + 1}`;
    out[key] = runs[0]!.matrix
      ? runs.map((r) => ({ matrix: r.matrix, outcome: r.outcome, outputs: r.outputs }))
      : runs[0]!.outputs;
  }
  return out;
}

/** The codes of an input (or the pipeline) that is wrong; every other code of exit 2 refused the run for what is not an input. */
const INPUT_CODES = /^(BAD_[A-Z_]+|PIPELINE_INVALID|UNKNOWN_COMMAND|SAME_FILE)$/;

/** How many findings of an invalid pipeline the log and the summary list (each is annotated, GitHub showing the first). */
const FINDINGS_SHOWN = 50;

/** Invalid inputs or pipeline, or a run refused before it started: annotations on the file's lines, a summary, outputs, its exit code. */
export async function failEarly(
  def: ActionDef,
  deps: GitHubDeps & { env: Env },
  error: unknown,
  masker: Masker,
): Promise<number> {
  const { kit, context } = deps;
  // An invalid pipeline's findings quote its lines: the credentials it writes literally (and the
  // secrets it names) are learnt from its YAML, and registered with the runner, before any is shown.
  if (error instanceof PipelineInvalid) learnInvalidFileSecrets(error, deps.env, masker);
  const mask = (text: string) => masker.mask(text);
  if (error instanceof PipelineInvalid) {
    for (const d of error.diagnostics) {
      const message = masker.mask(`${d.message}${d.hint ? `\nhint: ${d.hint}` : ''}`);
      kit.error(
        message,
        def.uses
          ? { title: 'enginectl: invalid input' }
          : {
              title: 'enginectl: invalid pipeline',
              file: inWorkspace(context, d.file),
              startLine: d.line,
              startColumn: d.col,
            },
      );
    }
  }
  // The first findings of an invalid pipeline, the others counted: the log and the summary stay readable (and under GitHub's 1 MiB).
  // Masked as it is described (describeError: each text, and the whole but for an invalid
  // pipeline's findings, whose places are never masked): printed as it is.
  const text = error instanceof PipelineInvalid ? error.describe(mask, FINDINGS_SHOWN) : describeError(error, mask);
  kit.info(text);
  const known = error instanceof EnginectlError;
  let summary = true;
  try {
    summary = booleanInput(kit.getInput, 'summary');
  } catch {
    // the input error being reported may be this one: the summary is written as by default
  }
  if (summary) {
    // Refused before it started: an input or the pipeline wrong (exit 2), refused for what is not an
    // input (exit 2: a lease another run holds, a resume of changed inputs: its code), or what kept it from starting.
    const heading = !known
      ? 'internal error'
      : exitCodeOf(error) !== ExitCode.invalidInput
        ? `not run (${error.code})`
        : INPUT_CODES.test(error.code)
          ? 'invalid input'
          : `refused (${error.code})`;
    const markdown = `## ❌ enginectl: ${heading}\n\n\`\`\`\n${text.replace(/```/g, "'''")}\n\`\`\`\n`;
    await kit
      .appendSummary(
        cutMarkdown(
          markdown,
          SUMMARY_BUDGET,
          (kib) => `The summary was cut at ${kib} KiB: the log holds the whole message.`,
        ),
      )
      .catch(() => undefined);
  }
  // Stopped (SIGINT, SIGTERM) before it started: cancelled, as a run stopped midway is.
  kit.setOutput('outcome', error instanceof Interrupted ? 'cancelled' : 'failure');
  kit.setOutput('report', '');
  kit.setOutput('outputs', '{}');
  kit.setFailed(masker.mask(error instanceof PipelineInvalid ? error.message : text.split('\n')[0]!));
  return exitCodeOf(error);
}

/** Annotation paths are relative to the checkout, spelt as the checkout names the file (no ./ nor .. segment). */
export function inWorkspace(context: GitHubContext, file: string): string {
  const root = context.workspace;
  if (!root) return file;
  const path = relative(root, resolve(root, file));
  return path !== '' && !path.startsWith('..') && !isAbsolute(path) ? path.split(sep).join('/') : file;
}

/** Each report not written (a file, the job summary) as a warning, as the CLI prints each. */
export function warnNotWritten(kit: GitHubDeps['kit'], masker: Masker, failed: readonly string[]): void {
  for (const f of failed) kit.warning(masker.mask(`${REPORT_NOT_WRITTEN.code}: ${f}`), { title: 'enginectl' });
}

/** `what` (a run, a dry run, a merge) went as it should, but a report was not written: the step fails as the CLI's run exits, 1. */
export function failNotWritten(
  kit: GitHubDeps['kit'],
  masker: Masker,
  what: string,
  failed: readonly string[],
): number {
  kit.setFailed(
    masker.mask(
      `${what}, but ${failed.length} report(s) could not be written (${REPORT_NOT_WRITTEN.code}): ${failed.join('; ')}`,
    ),
  );
  return ExitCode.failed;
}

/** How a parked run goes on, in the action's words: a bake's ends by itself (a value in doubt there waits for a decision). */
function goOnFrom(parked: Park): string {
  if (parked.for === 'window') return 'run again with input continue then';
  if (parked.for === 'bake' && parked.waits.every((w) => w.value === null))
    return 'once it is over, run again with input continue (enginectl decide --continue ends it sooner)';
  return 'decide (enginectl decide), then run again with input continue';
}

/** How many failed step runs the failure message names; the others are counted (the summary and the report list each). */
const NAMED = 10;

const namesOf = (names: readonly string[]) =>
  names.length <= NAMED ? names.join(', ') : `${names.slice(0, NAMED).join(', ')} and ${names.length - NAMED} more`;

/**
 * A run's end as the action's status (its outputs were set by the outputs channel): failed,
 * cancelled or ok; a report not written fails a run that succeeded. A line break in a name (the
 * pipeline's, a step's) or a reason starts no line of its own: its further lines are indented.
 */
export function endRun(
  kit: GitHubDeps['kit'],
  end: { done: Pick<RunDone, 'result' | 'halted'> & { failed?: readonly string[] }; masker: Masker },
): number {
  const {
    done: { result, halted, failed = [] },
    masker,
  } = end;
  warnNotWritten(kit, masker, failed);
  if (halted) {
    kit.setFailed(indentLines(masker.mask(`"${result.name}" stopped: ${halted.message}`)));
    return ExitCode.failed;
  }
  // Parked (saved in the store, to go on with input continue): neither a success nor a failure; the step is not failed.
  const parked = parkedOf(result);
  if (parked) {
    kit.info(indentLines(masker.mask(`"${result.name}" parked: waiting for ${parked.reason}; ${goOnFrom(parked)}`)));
    return ExitCode.ok;
  }
  const doubts = undecidedDoubts(result.steps);
  if (result.outcome === 'success' && doubts.length === 0)
    return failed.length === 0
      ? ExitCode.ok
      : failNotWritten(kit, masker, `"${indentLines(result.name)}" succeeded`, failed);
  if (result.outcome === 'success') {
    kit.setFailed(indentLines(masker.mask(`"${result.name}": ${doubtsLine(doubts, ACTION_WAYS)}`)));
    return ExitCode.failed;
  }
  const failedSteps = result.steps.filter((s) => s.outcome === 'failure' && !s.continuedOnError).map((s) => s.name);
  kit.setFailed(
    indentLines(
      result.outcome === 'cancelled'
        ? `"${result.name}" was cancelled`
        : `"${result.name}" failed: ${namesOf(failedSteps) || 'a step failed'}`,
    ),
  );
  return result.outcome === 'cancelled' ? ExitCode.interrupted : ExitCode.failed;
}
