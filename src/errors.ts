// Errors are values with a stable code, an exit code from the contract and a message for a person.
// Only the edge (the CLI's main, an action's main) turns them into process state.

import type { ErrorCode } from './error-codes.ts';

/** Exit codes of the product contract (pipeline-format.md section 3). */
export const ExitCode = {
  ok: 0,
  failed: 1,
  invalidInput: 2,
  /** A drift audit (plan --live --expect) that found no drift but could not read a site: its server could not be reached. */
  unreachable: 3,
  /**
   * The run parked (a bake, an operator's decision): saved in the run store, to go on in a later
   * job (run --continue). 75 is EX_TEMPFAIL of sysexits.h, "try again later": neither a success
   * nor a failure, and a CI system can be told to show it so (GitLab: allow_failure: exit_codes).
   */
  parked: 75,
  /**
   * A worker of a sharded run (run --shard) stopped on its store or lease before it sent anything:
   * safe to run the index again. 69 is EX_UNAVAILABLE of sysexits.h.
   */
  unavailable: 69,
  /** SIGHUP: the terminal closed (an SSH session dropped); 128 + 1, as a shell reports it. */
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorOptions {
  /** What the person can do about it. */
  hint?: string;
  cause?: unknown;
}

export abstract class EnginectlError extends Error {
  abstract readonly code: ErrorCode;
  abstract readonly exitCode: ExitCode;
  readonly hint: string | undefined;

  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }

  /**
   * Whether `describe` masks each text it quotes itself, around places (`FILE:LINE:COL`, a line's
   * gutter) that are no secret's and must read as written: the whole is then not masked again.
   */
  readonly masksEachText: boolean = false;

  /** The message and the hint, as printed to a person; `mask` is for an error that quotes a file's lines before it cuts them (PipelineInvalid). */
  describe(_mask?: (text: string) => string): string {
    return this.hint ? `${this.message}\n  hint: ${this.hint}` : this.message;
  }
}

/** A mistake in what the user gave us (flags, files, input values): exit 2. */
export class UsageError extends EnginectlError {
  readonly exitCode = ExitCode.invalidInput;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A command stopped by SIGINT or SIGTERM before it sent anything (reading its pipeline): exit 130,
 * which the process edge makes 143 for SIGTERM, 129 for SIGHUP (signals.ts).
 */
export class Interrupted extends EnginectlError {
  readonly code = 'CANCELLED';
  readonly exitCode = ExitCode.interrupted;
}

/**
 * A read that `signal` stopped (SIGINT, SIGTERM: a FIFO or standard input whose writer stalls),
 * told as the interruption it is, not as a file that cannot be read: `${what} was interrupted
 * (received SIGINT); ${after}`. Undefined when the signal did not abort.
 */
export function interruptedRead(
  signal: AbortSignal | undefined,
  what: string,
  after = 'nothing was run',
): Interrupted | undefined {
  if (!signal?.aborted) return undefined;
  const why = signal.reason instanceof Error ? ` (${signal.reason.message})` : '';
  return new Interrupted(`${what} was interrupted${why}; ${after}`);
}

/** Turns anything thrown into a line a person can read: never a stack trace. */
/** The error as printed to a person; `mask`: the secrets it may quote, masked in each text before it is cut (and then in the whole, but for an error that masks each text itself). */
export function describeError(error: unknown, mask?: (text: string) => string): string {
  const text =
    error instanceof EnginectlError
      ? error.describe(mask)
      : `internal error: ${error instanceof Error ? error.message : String(error)}`;
  return mask && !(error instanceof EnginectlError && error.masksEachText) ? mask(text) : text;
}

export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof EnginectlError ? error.exitCode : ExitCode.failed;
}
