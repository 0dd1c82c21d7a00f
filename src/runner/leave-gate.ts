// A write's window judged again as its first write leaves (admission.ts admitAtLeave): between its
// admission and that moment comes the snapshot verify compares against (no step type reads before
// its write today; one that did would be judged after it too), which a slow API may make last
// minutes; a write that no longer fits is not sent.
import type { CallObserver } from '../api/index.ts';
import type { Step } from '../pipeline/model.ts';
import type { StepType } from '../steps/types.ts';
import { admitAtLeave } from './admission.ts';
import { finish } from './instance-end.ts';
import type { StepError, StepRun } from './result.ts';
import type { RunContext } from './run-context.ts';

/** The write was refused as it was about to leave: nothing sent, the instance ends with `refusal`. */
export class LeaveRefused extends Error {
  constructor(readonly refusal: StepError) {
    super(refusal.message);
  }
}

/**
 * `calls` with the window judged again before an attempt's first write is recorded and leaves (the
 * snapshot, read in the observer before `calls`, comes first): a refusal is thrown as LeaveRefused.
 */
export function leaveGate(
  ctx: RunContext,
  step: Step,
  run: StepRun,
  type: StepType,
  calls: CallObserver,
): CallObserver {
  if (!ctx.pipeline.schedule) return calls;
  let judged = false;
  return {
    async sending(call) {
      if (!judged) {
        judged = true;
        const refusal = await admitAtLeave(ctx, step, run, type);
        if (refusal) throw new LeaveRefused(refusal);
      }
      return calls.sending(call);
    },
    status: (call, status) => calls.status(call, status),
    answered: (call, end) => calls.answered(call, end),
  };
}

/**
 * The instance ended by a refusal as its write was about to leave, as by one at its admission: a
 * park is cancelled (the run goes on later), a closed window a failure; a write in doubt the
 * operator decided to send again is still in doubt, the decision standing, not acted on.
 */
export function refusedAtLeave(ctx: RunContext, run: StepRun, position: string, refusal: StepError) {
  if (ctx.resume?.retried.get(run.key)) run.inDoubt ??= ctx.resume.doubts?.get(run.key);
  return finish(ctx, run, position, refusal.code === 'WINDOW_PARKED' ? 'cancelled' : 'failure', refusal);
}
