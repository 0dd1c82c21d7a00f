// How an instance ends: finished with its outcome, not started (interrupted or fail-fast),
// cancelled (in doubt when its last call got no answer), or carried whole from an earlier run; and
// what it gave, masked into the StepRun the reports show.
import { appliedAnswer, stepDoubt, type Attempt, type InstanceFate } from '../api/fate.ts';
import { EnginectlError } from '../errors.ts';
import type { Step } from '../pipeline/model.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { StepOutcome, StepType, TargetDef } from '../steps/types.ts';
import { instanceScope, resolveInputs, type ResolvedInputs } from './prepare-instance.ts';
import { CARRIED_FIELDS } from './instance.ts';
import type { Carried } from './resume.ts';
import {
  inDoubtHint,
  isWindowOverride,
  type InDoubtCall,
  type Outcome,
  type StepError,
  type StepRun,
} from './result.ts';
import type { RunContext } from './run-context.ts';
import { maskDeclared } from './declared-secrets.ts';
import { maskAnswer } from './answer-secrets.ts';
import type { WaysOn } from '../ways-on.ts';

/** The warning of an instance whose write may have been applied twice. */
export const MAYBE_TWICE = 'maybe applied twice';

const INTERRUPTED: StepError = { code: 'CANCELLED', message: 'cancelled: the run was interrupted' };

/** Why the run stopped: interrupted (a signal), or an error that stopped it (the journal could not be written). */
export function stopped(signal: AbortSignal): StepError {
  const reason: unknown = signal.reason;
  return reason instanceof EnginectlError
    ? { code: 'CANCELLED', message: `cancelled: the run stopped: ${reason.message}`, hint: reason.hint }
    : INTERRUPTED;
}

export function errorOf(error: unknown): StepError {
  if (error instanceof EnginectlError) return { code: error.code, message: error.message, hint: error.hint };
  return { code: 'STEP_ERROR', message: error instanceof Error ? error.message : String(error) };
}

/**
 * A cancelled instance: in doubt when a write of it left and its fate is unknown, or (the step not
 * ended) its last write was applied and the step's result from it never recorded: as the journal
 * reads it back (api/fate.ts stepDoubt). What stopped the run is named when it is not a signal.
 */
export function cancelledError(
  run: StepRun,
  signal: AbortSignal,
  attempts: readonly Attempt[] = [],
  ways?: WaysOn,
): StepError {
  run.inDoubt ??= stepDoubt(attempts);
  if (!run.inDoubt) return stopped(signal);
  const { method, path, status } = run.inDoubt;
  const reason: unknown = signal.reason;
  const answered = status === undefined ? '' : ` (answered ${status}, before the step ended)`;
  const why = reason instanceof EnginectlError ? ` (the run stopped: ${reason.message})` : '';
  return {
    code: 'IN_DOUBT',
    message: `cancelled after sending ${method} ${path}${answered}: the request was sent; the server may have applied it${why}`,
    hint: inDoubtHint(ways),
  };
}

/**
 * A step whose own check accepted an answer that does not say what the server did (a gateway's
 * page, a failing server's answer: api/fate.ts): its write is in doubt, and the step is no success.
 */
export function acceptedInDoubt(doubt: InDoubtCall, ways?: WaysOn): StepError {
  const answered = doubt.status === undefined ? 'got no answer' : `was answered ${doubt.status}`;
  return {
    code: 'IN_DOUBT',
    message: `${doubt.method} ${doubt.path} ${answered}, which the step's check accepts, but which is not the API's answer (a gateway's page, a failing server's) and does not say what the server did: it may have applied it`,
    hint: inDoubtHint(ways),
  };
}

/** Warns, once, of a write applied after an earlier attempt of it that the server may have applied too. */
export function warnIfTwice(ctx: RunContext, run: StepRun, fate: InstanceFate): void {
  const twice = fate.maybeTwice;
  if (!twice || run.warnings.some((w) => w.startsWith(MAYBE_TWICE))) return;
  run.warnings = [
    ...run.warnings,
    `${MAYBE_TWICE}: ${twice.method} ${twice.path} was applied after an earlier attempt the server may have applied too`,
  ];
  ctx.tell.warn(run, run.warnings.at(-1)!);
}

/** Why a step's retry stops after an attempt that may have applied its write, or applied it. */
export function notRetried(doubt: InDoubtCall): string {
  const fate = doubt.applied ? appliedAnswer(doubt.status) : 'was sent and the server may have applied it';
  return `${doubt.method} ${doubt.path} ${fate} (retry: { in-doubt: retry } sends it again)`;
}

/**
 * An instance not started because the run was interrupted: said once for the run, its end left to
 * the resume; one a resume carries is shown as the earlier run left it (as leaveUnstarted does).
 */
export function notStarted(ctx: RunContext, step: Step, run: StepRun, position: string, signal: AbortSignal): void {
  if (carriedNow(ctx, step, run, position)) return;
  run.outcome = 'cancelled';
  run.error = stopped(signal);
}

export const FAIL_FAST: StepError = {
  code: 'FAIL_FAST',
  message: 'not started: another instance of this matrix failed (fail-fast)',
};

/** What the reports and the journal keep of resolved inputs: masked, and the target database they name. */
export function shown(
  ctx: RunContext,
  type: StepType,
  inputs: Record<string, unknown>,
  /** false: masked as before typed numbers were (Masker.maskValueAsBefore), for a digest only. */
  numbers = true,
): Pick<StepRun, 'inputs' | 'target'> {
  const named = type.targetInput === undefined ? undefined : inputs[type.targetInput];
  const def =
    typeof named === 'string'
      ? Object.hasOwn(ctx.targets, named)
        ? ctx.targets[named]
        : undefined
      : (named as TargetDef | undefined);
  return {
    inputs: maskDeclared(
      numbers ? ctx.masker.maskValue(inputs) : ctx.masker.maskValueAsBefore(inputs),
      type.secretInputs,
    ),
    target:
      def && typeof def === 'object' ? ctx.masker.mask(`${String(def.database)} on ${String(def.server)}`) : undefined,
  };
}

/**
 * An instance done in an earlier run, carried when its inputs are the same now (or not known then,
 * or not resolvable now); a changed target or inventory makes another call: it runs, and this
 * says false. One the journal never saw end keeps no inputs: its end records those it is carried with.
 */
export function carryIfSame(
  ctx: RunContext,
  type: StepType,
  run: StepRun,
  position: string,
  carried: Carried,
  resolved: ResolvedInputs,
): boolean {
  const now = 'inputs' in resolved ? shown(ctx, type, resolved.inputs) : undefined;
  const digest = (masked: Pick<StepRun, 'inputs' | 'target'>) => ctx.resume!.digest({ ...run, ...masked });
  // A journal of an enginectl that did not mask a typed number that is a secret hashed it as it
  // is: the same inputs then, carried (sent again, a write done would be done twice).
  const same = (then: string) =>
    digest(now!) === then || ('inputs' in resolved && digest(shown(ctx, type, resolved.inputs, false)) === then);
  if (carried.inputs !== undefined && now !== undefined && !same(carried.inputs)) return false;
  carry(ctx, run, position, carried, carried.inputs === undefined ? now : undefined);
  return true;
}

/**
 * An instance this run leaves without starting it (fail-fast, a halt, a park): cancelled with
 * `error`, its end told (`shown`: on the terminal too), unless a resume carries it (done in an
 * earlier run, or a doubt the operator decided). That one is shown and recorded as that run left
 * it: "not started" would tell the operator a site rolled out earlier was not, and written over
 * its end, the next resume would send it again. One carried already is left as it is. One whose
 * inputs changed (--force) is not carried, as it would not be had the run come to it: not
 * started, and its earlier end stands in the journal (a resume with them as they were carries it).
 */
export function leaveUnstarted(
  ctx: RunContext,
  step: Step,
  run: StepRun,
  position: string,
  error: StepError,
  told: boolean,
): void {
  if (carriedNow(ctx, step, run, position)) return;
  run.outcome = 'cancelled';
  run.error = error;
  if (told) ctx.tell.stepFinished(run, position);
  if (!ctx.resume?.carried.has(run.key)) ctx.tell.instanceFinished(run, undefined);
}

/** Whether an instance this run does not come to is one a resume carries (already, or now: its inputs the same). */
function carriedNow(ctx: RunContext, step: Step, run: StepRun, position: string): boolean {
  if (run.resume === 'earlier-run') return true;
  const carried = ctx.resume?.carried.get(run.key);
  const resolved = carried && resolveInputs(step, instanceScope(ctx, run.matrix ?? {}), ctx.masker);
  return !!carried && carryIfSame(ctx, STEP_TYPES.get(step.uses)!, run, position, carried, resolved!);
}

export function finish(
  ctx: RunContext,
  run: StepRun,
  position: string,
  outcome: Outcome,
  error?: StepError,
  outputs?: Record<string, unknown>,
): void {
  run.outcome = outcome;
  run.error = error;
  run.durationMs = run.startedAt === undefined ? 0 : ctx.watch() - run.startedAt;
  run.continuedOnError = outcome === 'failure' && ctx.pipeline.steps[run.step]!.continueOnError;
  if (outputs) ctx.live.set(run, outputs);
  if (outcome !== 'cancelled' || run.startedAt !== undefined) ctx.tell.stepFinished(run, position);
  ctx.tell.instanceFinished(run, outputs);
}

/**
 * An instance done in an earlier run (or an in-doubt call the operator decided to treat as
 * applied): shown as that run left it, with its figures, result and update report, and its
 * outputs back for the steps after it. Nothing is sent.
 */
export function carry(
  ctx: RunContext,
  run: StepRun,
  position: string,
  carried: Carried,
  /** Its inputs as they resolve now, when the journal kept none of them (an instance it never saw end). */
  inputs?: Pick<StepRun, 'inputs' | 'target'>,
): void {
  const earlier = carried.run;
  Object.assign(run, Object.fromEntries(CARRIED_FIELDS.map((k) => [k, earlier[k]])), inputs, {
    outputs: ctx.masker.maskValue(earlier.outputs),
    resume: 'earlier-run',
  } satisfies Partial<StepRun>);
  ctx.live.set(run, carried.outputs);
  ctx.tell.stepFinished(run, position);
  ctx.tell.instanceFinished(run, carried.outputs);
}

/** What the step gave, masked into the run (its declared secret outputs whole, and its answer's credential fields: answer-secrets.ts). */
export function record(ctx: RunContext, run: StepRun, outcome: StepOutcome): void {
  const { masker } = ctx;
  run.outputs = maskDeclared(masker.maskValue(maskAnswer(outcome.outputs)), STEP_TYPES.get(run.uses)!.secretOutputs);
  run.result = masker.maskValue(maskAnswer(outcome.result ?? null));
  run.figures = outcome.figures === undefined ? undefined : masker.mask(outcome.figures);
  // An override of its window stays on the instance whatever each attempt warns of.
  const overridden = run.warnings.filter(isWindowOverride);
  run.warnings = [...overridden, ...(outcome.warnings ?? []).map((w) => masker.mask(w))];
}
