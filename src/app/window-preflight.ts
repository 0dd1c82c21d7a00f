// A write no window can ever fit, refused before the run opens anything: its expected duration plus
// the margin longer than every opening of its windows within 400 days, or every opening frozen. The
// pipeline and the clock tell it (and the earlier durations, read before the journal), so the run
// is refused with the code admission would give it (WINDOW_CLOSED, exit 1) before its journal is
// opened, its lease taken or any request sent, the reads before the write included. Only what would
// surely end the run so is refused: not a resume (what its journal carries is not known yet), an
// override the pipeline allows, a write under an `if:` or `continue-on-error`, nor one a rollout's
// failure budget or decision may let the rollout go past.
import { formatDuration } from '../duration.ts';
import { EnginectlError, ExitCode } from '../errors.ts';
import type { Pipeline, Step } from '../pipeline/model.ts';
import { inRollout, type Selection } from '../pipeline/selection.ts';
import { expectedSource, iso, judge, overrideWay, whyNot } from '../runner/admission.ts';
import { instanceSet } from '../runner/instance-set.ts';
import { Masker } from '../runner/masker.ts';
import type { RunnerDeps, WindowOverride } from '../runner/run-context.ts';
import { prepareRun, serverName, type Env } from '../runner/scope.ts';
import { nextFit } from '../schedule/schedule.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

/** A run refused before it opened anything: a write of it fits no window within 400 days. */
export class NoWindowFits extends EnginectlError {
  readonly code = 'WINDOW_CLOSED';
  readonly exitCode = ExitCode.failed;
}

export interface WindowPreflight {
  pipeline: Pipeline;
  selection: Selection;
  env: Env;
  /** The run's clock, as admission would read it at the run's start. */
  now: number;
  /** Earlier write durations (--history, the run store's latest runs): the need as the run reads it. */
  history?: RunnerDeps['history'];
  /** --override-freeze from an identity the pipeline allows: such a write is started, not refused. */
  override?: WindowOverride | undefined;
  /** --resume, --continue: the instances its journal carries are not known before it is read. */
  resuming: boolean;
  ways?: WaysOn | undefined;
}

/** Throws NoWindowFits naming every write instance no window fits; returns when there is none. */
export function refuseWritesNoWindowFits(input: WindowPreflight): void {
  const { pipeline, now } = input;
  const spec = pipeline.schedule;
  if (!spec || input.resuming || input.override) return;
  const set = instanceSet(pipeline, input.selection);
  let contexts: Record<string, unknown> | undefined;
  const unfit: string[] = [];
  for (const step of pipeline.steps) {
    const type = STEP_TYPES.get(step.uses);
    if (!type || !surelyAttempted(pipeline, step)) continue;
    for (const { combination } of set.steps[step.index]!) {
      let server: string | undefined;
      // Earlier durations are by server: an expression's server is resolved as the run resolves it.
      if (input.history && step.expectedMs === undefined && step.server !== undefined) {
        try {
          contexts ??= prepareRun(pipeline, input.env, new Masker()).contexts;
          server = serverName(step, combination, contexts);
        } catch {
          continue; // The run says what it cannot resolve; its admission judges the write then.
        }
      }
      const judged = judge(spec, step, type, { matrix: combination, server }, now, input.history);
      if (!judged || judged.verdict.fits || nextFit(judged.schedule, now, judged.need) !== undefined) continue;
      const values = Object.entries(combination).map(([k, v]) => `${k}=${String(v)}`);
      const { expected, need, verdict } = judged;
      unfit.push(
        `[${step.index + 1}/${pipeline.steps.length}] ${step.id ?? step.uses}${values.length ? ` (${values.join(', ')})` : ''} needs ${formatDuration(need)} (${formatDuration(expected.ms)} from ${expectedSource(expected)} plus the margin), and ${verdict.why === 'overrun' ? `the window open now ends at ${iso(verdict.end)}, ${formatDuration(verdict.byMs)} too soon` : `now ${whyNot(verdict, need)}`}`,
      );
    }
  }
  if (unfit.length === 0) return;
  const ways = input.ways ?? CLI_WAYS;
  throw new NoWindowFits(
    `not started: no window within 400 days fits ${unfit.length === 1 ? 'this write' : 'these writes'}: ${unfit.join('; ')}; nothing was run or sent, and no journal opened`,
    {
      hint: `give its windows a longer duration: (or fewer freezes over them), or a shorter expected: if it takes less; or leave it out of this run (${ways.selection})${overrideWay(spec.overrideFreeze, ways.overrideFreeze)}`,
    },
  );
}

/**
 * A write the run reaches unless something before it fails, whose refusal fails the run: no `if:`
 * of its own, no continue-on-error, and in a rollout neither a failure budget nor a decision that
 * could take the rollout past it.
 */
function surelyAttempted(pipeline: Pipeline, step: Step): boolean {
  if (step.if.source !== 'success()' || step.continueOnError) return false;
  const rollout = pipeline.rollout;
  if (!rollout || !inRollout(rollout, step)) return true;
  const budget = rollout.maxFailures;
  const tolerated = 'count' in budget ? budget.count > 0 : budget.share > 0;
  return !tolerated && (step.onFailure ?? rollout.onFailure) !== 'decide';
}
