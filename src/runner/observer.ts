// What a run tells an observer (the journal) as it goes: each instance's start and end, and each
// non-idempotent call just before it leaves and when it ends. A call that left and got no answer
// leaves its instance "in doubt": the server may have applied it.
import { fateUnknown, type CallObserver, type SentCall } from '../api/index.ts';
import type { StepRun } from './result.ts';

export type CallEnd = { status: number } | { error: string };

export interface RunObserver {
  instanceStarted(run: StepRun): void;
  /** Returns once the record is safe on disk: the request leaves after it. */
  sending(run: StepRun, call: SentCall): void;
  answered(run: StepRun, call: SentCall, end: CallEnd): void;
  /** `outputs` unmasked, for what a later step may read; the observer masks what it keeps. */
  instanceFinished(run: StepRun, outputs: Record<string, unknown> | undefined): void;
}

/**
 * The observer of one instance's calls: tells the run's observer, and keeps `run.inDoubt` true to
 * what happened: set when a sent call ends without an answer, cleared when a later call (a retry)
 * is answered.
 */
export function instanceCalls(run: StepRun, observer: RunObserver | undefined): CallObserver {
  return {
    sending(call) {
      observer?.sending(run, call);
    },
    answered(call, end) {
      run.inDoubt = 'error' in end && fateUnknown(end.error) ? { method: call.method, path: call.path } : undefined;
      observer?.answered(run, call, end);
    },
  };
}
