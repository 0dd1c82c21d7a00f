// One instance of a step (the step, or one combination of its matrix): its condition, its inputs
// resolved and checked, its attempts under the step's timeout and retry, its outcome masked into
// the StepRun the reports show, and the run's listeners told (the log, the journal).
import { ApiError, deadline, stepDoubt, type CallObserver } from '../api/index.ts';
import { STOPPED_BEFORE_SENDING } from '../api/fate.ts';
import { formatDuration } from '../duration.ts';
import type { Step } from '../pipeline/model.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { StepEnv, StepOutcome } from '../steps/types.ts';
import { instanceCalls } from './observer.ts';
import { snapshotBefore } from './snapshot-before.ts';
import { LeaveRefused, leaveGate, refusedAtLeave } from './leave-gate.ts';
import { learnAnswer } from './answer-secrets.ts';
import { PIPELINE_DECIDES, type Decision, type StepError, type StepRun } from './result.ts';
import type { RunContext } from './run-context.ts';
import { conditionOf, instanceScope, resolveInputs } from './prepare-instance.ts';
import { admit } from './admission.ts';
import { parkedBefore } from './window-park.ts';
import { retriedSince } from './decisions.ts';
import {
  acceptedInDoubt,
  cancelledError,
  errorOf,
  finish,
  notRetried,
  record,
  carryIfSame,
  shown,
  warnIfTwice,
} from './instance-end.ts';

export async function runInstance(ctx: RunContext, step: Step, run: StepRun, position: string): Promise<void> {
  const { deps, masker } = ctx;
  const log = ctx.tell;
  const scope = instanceScope(ctx, run.matrix ?? {});
  const condition = conditionOf(step, scope);
  if ('failure' in condition) return finish(ctx, run, position, 'failure', condition.failure);
  const type = STEP_TYPES.get(step.uses)!;
  // Done in an earlier run: carried (whatever its condition says now) when its inputs are the same
  // now; a changed target or inventory makes another call: it runs.
  const carried = carriedFor(ctx, run);
  let resolvedInputs = carried && resolveInputs(step, scope, masker);
  if (carried && resolvedInputs) {
    if (carryIfSame(ctx, type, run, position, carried, resolvedInputs)) return;
    log.warn(
      run,
      "its inputs changed since the journal's run (the file was changed, or a value it reads from the environment): it runs again",
    );
  }
  // The run parked for a write's window: nothing after it starts (window-park.ts).
  if (ctx.windowPark.park) return parkedBefore(ctx, run, position);
  if (!condition.runs) return finish(ctx, run, position, 'skipped');
  // A write that does not fit its window is not started (admission.ts), or parks the run.
  const refused = await admit(ctx, step, run, type);
  // A write in doubt the operator decided to send again, not admitted: still in doubt, the decision
  // shown and standing (recorded, not acted on) for the run that sends it.
  const decided = refused && ctx.resume?.retried.get(run.key);
  if (decided) Object.assign(run, { inDoubt: ctx.resume!.doubts?.get(run.key), decision: decided });
  if (refused)
    return finish(
      ctx,
      run,
      position,
      refused.code === 'WINDOW_PARKED' || deps.signal.aborted ? 'cancelled' : 'failure',
      refused,
    );
  run.decision = ctx.resume?.retried.get(run.key);
  run.startedAt = ctx.watch();
  log.stepStarted(run, position);
  ctx.tell.instanceStarted(run);
  resolvedInputs ??= resolveInputs(step, scope, masker);
  if ('failure' in resolvedInputs) return finish(ctx, run, position, 'failure', resolvedInputs.failure);
  const inputs = resolvedInputs.inputs;
  Object.assign(run, shown(ctx, type, inputs));
  const attempts = step.retry?.attempts ?? 1;
  const calls = instanceCalls(run, ctx.tell);
  const snapshotted = { taken: false };
  // The pipeline's decision to send a write in doubt again: recorded once its send is (the write leaves).
  let pending: Decision | undefined;
  // The decision it replaced, back when the write was stopped before it was handed to the connection.
  let replaced: { decision: Decision | undefined } | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    run.attempts = attempt;
    const time = step.timeoutMs === undefined ? undefined : deadline(deps.signal, step.timeoutMs, deps.timer);
    const signal = time?.signal ?? deps.signal;
    const before = snapshotBefore(ctx, type, run, leaveGate(ctx, step, run, type, calls), signal, snapshotted);
    // Only a retry can carry a decision: the first attempt (every instance's) goes through as it is.
    const observer: CallObserver =
      attempt === 1
        ? before
        : {
            async sending(call) {
              await before.sending(call);
              if (pending) [replaced, run.decision, pending] = [{ decision: run.decision }, pending, undefined];
            },
            status: (call, status) => before.status(call, status),
            answered: (call, end) => {
              // Its record kept, then stopped before it left: not sent again, the decision not acted on.
              if (replaced && 'error' in end && end.error === STOPPED_BEFORE_SENDING) run.decision = replaced.decision;
              replaced = undefined;
              return before.answered(call, end);
            },
          };
    const env: StepEnv = {
      client: () => ctx.client(run.server).bind({ signal, observer }),
      call: { signal },
      signal,
      log: { info: (m) => log.info(run, masker.mask(m)), warn: (m) => log.warn(run, masker.mask(m)) },
      now: deps.now,
      sleep: deps.sleep,
      // A run waits: the gate's own log line says for what.
      waitFor: () => undefined,
      targets: ctx.targets,
      secret: (v) => masker.add(v),
      evaluate: (expression) => expression.evaluate(scope),
    };
    const began = deps.now();
    const heartbeat = setInterval(
      () => log.info(run, `still running (${formatDuration(deps.now() - began)})`),
      deps.heartbeatMs ?? 60_000,
    );
    let outcome: StepOutcome | undefined;
    let error: StepError | undefined;
    let inFlight = '';
    try {
      outcome = await type.run(inputs, env);
    } catch (caught) {
      if (caught instanceof LeaveRefused) return refusedAtLeave(ctx, run, position, caught.refusal);
      error = errorOf(caught);
      // A write answered 2xx whose answer could not be read: its fate is unknown (api/fate.ts).
      calls.unreadable(caught);
      if (caught instanceof ApiError && caught.code === 'API_ABORTED')
        inFlight = ` waiting for ${caught.method} ${caught.path} on ${caught.server}`;
    } finally {
      clearInterval(heartbeat);
      time?.clear();
    }
    // Its answer's credentials are secrets from here on, before anything shows what it gave (answer-secrets.ts).
    if (outcome) learnAnswer(masker, [outcome.outputs, outcome.result], `an answer of ${type.uses}`);
    if (deps.signal.aborted)
      return finish(ctx, run, position, 'cancelled', cancelledError(run, deps.signal, calls.attempts, deps.ways));
    if (time?.timedOut)
      error = {
        code: 'STEP_TIMEOUT',
        message: `timed out after ${formatDuration(step.timeoutMs!)}${inFlight}`,
        hint: "raise the step's timeout: if the operation is expected to take longer, and check the server is responsive",
      };
    if (outcome) record(ctx, run, outcome);
    // The step read its write's 2xx answer as the server's refusal: refused, before "maybe twice" is judged.
    if (outcome?.refused && (outcome.failure || error)) calls.refusedInBody();
    warnIfTwice(ctx, run, calls.fate());
    if (outcome) {
      for (const w of outcome.warnings ?? []) log.warn(run, masker.mask(w));
      // A write whose fate is unknown is in doubt whatever the step's own check accepted (an
      // expect-status that admits a gateway's 404): never a success (api/fate.ts).
      const unknown = outcome.failure || error ? undefined : calls.fate().doubt;
      if (!outcome.failure && !error && !unknown)
        return finish(ctx, run, position, 'success', undefined, outcome.outputs);
      error ??= unknown
        ? acceptedInDoubt(unknown, deps.ways)
        : typeof outcome.failure === 'string'
          ? { code: 'STEP_FAILED', message: outcome.failure }
          : outcome.failure!;
    }
    // The attempt failed: a write the server applied (not refused in its body) is in doubt too (api/fate.ts).
    run.inDoubt = stepDoubt(calls.attempts);
    // The attempt's failure as the instance's, masked, with what the step gave.
    const failed = () =>
      finish(
        ctx,
        run,
        position,
        'failure',
        { ...error!, message: masker.mask(error!.message), hint: error!.hint && masker.mask(error!.hint) },
        outcome?.outputs,
      );
    // An attempt that may have applied its write is never followed by another unless the pipeline says so.
    if (attempt < attempts && run.inDoubt && step.retry!.inDoubt === 'stop') {
      log.warn(
        run,
        masker.mask(
          `attempt ${attempt} of ${attempts} failed: ${error!.message}; not retried: ${notRetried(run.inDoubt)}`,
        ),
      );
      return failed();
    }
    // Decided now, recorded once the write is sent again: a run stopped before did not send it again.
    const decision: Decision | undefined =
      attempt < attempts && run.inDoubt
        ? {
            decision: 'retry',
            by: PIPELINE_DECIDES,
            at: deps.now(),
            evidence: `attempt ${attempt}: ${masker.mask(error!.message)}`,
          }
        : undefined;
    if (attempt < attempts) {
      const delay = step.retry!.delayMs * step.retry!.backoff ** (attempt - 1);
      log.warn(
        run,
        masker.mask(
          `attempt ${attempt} of ${attempts} failed: ${error!.message}; retrying in ${formatDuration(delay)}`,
        ),
      );
      try {
        await deps.sleep(delay, deps.signal);
      } catch {
        // Stopped in the wait: the step has not ended, its writes' fate as the journal reads it.
        return finish(ctx, run, position, 'cancelled', cancelledError(run, deps.signal, calls.attempts, deps.ways));
      }
      // Stopped as the wait ended: nothing more is sent.
      if (deps.signal.aborted)
        return finish(ctx, run, position, 'cancelled', cancelledError(run, deps.signal, calls.attempts, deps.ways));
      // Each attempt is a write admitted into its window as a first one: one that does not fit is
      // not sent (WINDOW_CLOSED, or the run parks), the earlier attempts' failure and fates kept.
      const again = await admit(ctx, step, run, type);
      if (deps.signal.aborted)
        return finish(ctx, run, position, 'cancelled', cancelledError(run, deps.signal, calls.attempts, deps.ways));
      if (again)
        return finish(
          ctx,
          run,
          position,
          again.code === 'WINDOW_PARKED' ? 'cancelled' : 'failure',
          {
            ...again,
            message: masker.mask(
              `attempt ${attempt + 1} of ${attempts} ${again.message}; attempt ${attempt} failed: ${error!.message}`,
            ),
          },
          outcome?.outputs,
        );
      pending = decision;
      continue;
    }
    return failed();
  }
}

/**
 * What a resume carries of an instance: a failure a continue carries (the run went past it) is
 * sent again when the operator retried its value in its wave since it failed (park.ts).
 */
function carriedFor(ctx: RunContext, run: StepRun) {
  const carried = ctx.resume?.carried.get(run.key);
  const over = ctx.pipeline.rollout?.over;
  const value = over === undefined ? undefined : run.matrix?.[over];
  if (carried?.run.outcome !== 'failure' || run.wave === undefined || value === undefined) return carried;
  return retriedSince(ctx, run.wave, String(value), carried.startedIn) ? undefined : carried;
}
