// What a run tells an observer (the journal) as it goes: each instance's start and end, and each
// non-idempotent call just before it leaves, when its status line arrives, and when it ends. A call
// that left and whose fate is unknown (no answer, or a 2xx whose answer could not be read) leaves
// its instance "in doubt": the server may have applied it.
import {
  ApiError,
  attemptFate,
  joinFates,
  type Attempt,
  type CallObserver,
  type InstanceFate,
  type SentCall,
} from '../api/index.ts';
import type { RolloutResult, StepRun } from './result.ts';
import type { Park } from './rollout-result.ts';

/** How a call ended: its status line and body's shape (and, told after, the step's reading of a 2xx as a refusal), or the error. */
export type CallEnd = { status: number; api: boolean; refused?: boolean | undefined } | { error: string };

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
  /** A write started by an override of its window (admission.ts): returns once it is safe on disk; the write leaves after it. */
  overridden?(
    run: StepRun,
    override: { by: string; reason: string; as?: string | undefined; why: string },
  ): Promise<void> | void;
  /** A rollout halted at a wave: on disk before the run goes on (the journal's resume asks the operator). */
  rolloutHalted?(halt: { wave: number; reason: string }): void;
  /** A rollout parked (park.ts): on disk before the run ends (run --continue and decide read it). */
  rolloutParked?(park: Park): void;
  /** A rollout's waves as it ended them, for the reports rendered from the journal. */
  rolloutDone?(result: RolloutResult): void;
}

/** The calls of one instance, each attempt with its fate (api/fate.ts), as the run goes. */
export interface InstanceCalls extends CallObserver {
  /** Every attempt of every write so far, oldest first. */
  readonly attempts: readonly Attempt[];
  /** The join over them: the instance's fate so far. */
  fate(): InstanceFate;
  /** A write answered 2xx whose answer could not be read (not JSON, not the documented shape): its fate is unknown. */
  unreadable(error: unknown): void;
  /** The step read its last write's 2xx answer as the server's refusal (an update's success: false): refused. */
  refusedInBody(): void;
}

/**
 * The observer of one instance's calls: tells the run's observer, and keeps `run.inDoubt` true to
 * the join over every attempt of the instance: a later attempt's answer never clears the doubt an
 * earlier one left.
 */
export function instanceCalls(run: StepRun, observer: RunObserver | undefined): InstanceCalls {
  const attempts: Attempt[] = [];
  /** The attempt whose answer has not come yet. */
  let current: Attempt | undefined;
  const judge = () => {
    run.inDoubt = joinFates(attempts).doubt;
  };
  return {
    attempts,
    fate: () => joinFates(attempts),
    async sending(call) {
      // Recorded first: a call whose record cannot be written does not leave, and is no attempt.
      await observer?.sending(run, call);
      current = { method: call.method, path: call.path, fate: 'unknown' };
      attempts.push(current);
      judge();
    },
    status(call, s) {
      if (current) current.status = s;
      return observer?.status(run, call, s);
    },
    answered(call, end) {
      if (current) {
        const evidence =
          'error' in end
            ? { sent: true as const, status: current.status, error: end.error }
            : { sent: true as const, status: end.status, api: end.api };
        if ('status' in end) current.status = end.status;
        current.fate = attemptFate(call.method, call.path, evidence);
        current = undefined;
        judge();
      }
      return observer?.answered(run, call, end);
    },
    unreadable(error) {
      if (!(error instanceof ApiError) || error.code !== 'API_INVALID_RESPONSE' || error.method === 'GET') return;
      const attempt = attempts.findLast(
        (a) => a.method === error.method && a.path === error.path && a.fate === 'applied',
      );
      if (!attempt) return;
      attempt.fate = 'unknown';
      judge();
      // The journal heard a 2xx: it is told the answer could not be read, so it reads the same fate.
      void observer?.answered(
        run,
        { method: attempt.method, path: attempt.path, body: undefined },
        { error: error.code },
      );
    },
    refusedInBody() {
      const attempt = attempts.at(-1);
      if (attempt?.fate !== 'applied' || attempt.status === undefined) return;
      attempt.fate = 'refused';
      judge();
      // Told after the answer, as the journal reads it: were it lost, the write reads applied (in doubt).
      void observer?.answered(
        run,
        { method: attempt.method, path: attempt.path, body: undefined },
        { status: attempt.status, api: true, refused: true },
      );
    },
  };
}
