// What a run tells an observer (the journal) as it goes: each instance's start and end, and each
// non-idempotent call just before it leaves, when its status line arrives, and when it ends. A call
// that left and whose fate is unknown (no answer, or a 2xx whose answer could not be read) leaves
// its instance "in doubt": the server may have applied it.
import { ApiError, fateUnknown, type CallObserver, type SentCall } from '../api/index.ts';
import type { InDoubtCall, RolloutResult, StepRun } from './result.ts';

export type CallEnd = { status: number } | { error: string };

export interface RunObserver {
  instanceStarted(run: StepRun): void;
  /** What a write's verifier read just before the write (masked by the observer), or why it could not. */
  snapshot(run: StepRun, read: { value: unknown } | { error: string }): void;
  /** Returns once the record is safe on disk: the request leaves after it; throws to keep it from leaving. */
  sending(run: StepRun, call: SentCall): Promise<void> | void;
  /** The status line arrived: from here on the call is never "not sent". Settles once recorded. */
  status(run: StepRun, call: SentCall, status: number): Promise<void> | void;
  answered(run: StepRun, call: SentCall, end: CallEnd): Promise<void> | void;
  /** Settles once what was heard so far is durable (the next step starts after it). */
  settled?(): Promise<void>;
  /** `outputs` unmasked, for what a later step may read; the observer masks what it keeps. */
  instanceFinished(run: StepRun, outputs: Record<string, unknown> | undefined): void;
  /** A rollout halted at a wave: on disk before the run goes on (the journal's resume asks the operator). */
  rolloutHalted?(halt: { wave: number; reason: string }): void;
  /** A rollout's waves as it ended them, for the reports rendered from the journal. */
  rolloutDone?(result: RolloutResult): void;
}

const ok = (status: number | undefined) => status !== undefined && status >= 200 && status <= 299;

/**
 * The observer of one instance's calls: tells the run's observer, and keeps `run.inDoubt` true to
 * what happened: set when a sent call ends without an answer, or with a 2xx status whose answer
 * could not be read; cleared when a later call (a retry) is answered.
 */
export function instanceCalls(run: StepRun, observer: RunObserver | undefined): CallObserver {
  let status: number | undefined;
  return {
    sending(call) {
      status = undefined;
      return observer?.sending(run, call);
    },
    status(call, s) {
      status = s;
      return observer?.status(run, call, s);
    },
    answered(call, end) {
      const unknownFate = 'error' in end && (fateUnknown(end.error) || ok(status));
      run.inDoubt = unknownFate ? doubt(call, status) : undefined;
      return observer?.answered(run, call, end);
    },
  };
}

function doubt(call: SentCall, status: number | undefined): InDoubtCall {
  return status === undefined ? { method: call.method, path: call.path } : { method: call.method, path: call.path, status };
}

/**
 * A write the server answered 2xx but whose answer could not be understood (not JSON, not the
 * documented shape): the server said it was applied, so it is in doubt, never "not sent".
 */
export function doubtOfAnswer(error: unknown): InDoubtCall | undefined {
  if (!(error instanceof ApiError) || error.code !== 'API_INVALID_RESPONSE') return undefined;
  if (error.method === 'GET' || !ok(error.status)) return undefined;
  return { method: error.method, path: error.path, status: error.status };
}
