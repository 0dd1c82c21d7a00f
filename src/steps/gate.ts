// Polling for gates: check, and while the condition is not met wait `interval` until `timeout`,
// saying what is awaited; fail with the last observed state. The wait bounds each check too: a
// check's request may take only the time the wait has left, so a server that never answers
// cannot hold a gate past its timeout.
import { ApiError, type CallOptions } from '../api/index.ts';
import { formatDuration } from '../duration.ts';
import { EnginectlError, ExitCode } from '../errors.ts';
import type { WaitSpec } from './inputs.ts';
import type { StepEnv } from './types.ts';

export interface Observation<T> {
  met: boolean;
  /** What was observed, for the log and the failure: "3 online, 1 on 26.10.3". */
  state: string;
  value: T;
}

/** The least time a check's request gets, even when the wait has less left (or the wait itself, if shorter). */
export const MIN_CHECK_MS = 10_000;

/** A check that did not answer within the time its wait had left. */
export class GateTimeout extends EnginectlError {
  readonly code = 'GATE_TIMEOUT';
  readonly exitCode = ExitCode.failed;
}

export async function pollUntil<T>(
  env: StepEnv,
  what: string,
  wait: WaitSpec | undefined,
  observe: (options: CallOptions) => Promise<Observation<T>>,
): Promise<{ observation: Observation<T>; polls: number }> {
  const started = env.now();
  const check = async (): Promise<Observation<T>> => {
    if (!wait) return observe(env.call);
    // A check made at the end of the wait (the last one) still gets a few seconds.
    const left = Math.max(Math.min(MIN_CHECK_MS, wait.timeoutMs), wait.timeoutMs - (env.now() - started));
    try {
      return await observe({ ...env.call, timeoutMs: left });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'API_TIMEOUT') throw error;
      throw new GateTimeout(
        `${what} not met within ${formatDuration(wait.timeoutMs)}: ${error.method} ${error.path} did not answer in the ${formatDuration(left)} the wait had left`,
        {
          hint: 'check that the server is responsive; raise wait.timeout if its checks are expected to take longer',
          cause: error,
        },
      );
    }
  };
  let observation = await check();
  let polls = 1;
  while (!observation.met && wait) {
    const elapsed = env.now() - started;
    // Checks at 0, interval, 2 x interval ... up to the timeout; a second of slack absorbs the
    // time the checks themselves took.
    if (elapsed + wait.intervalMs > wait.timeoutMs + 1_000) break;
    env.waitFor({ what, state: observation.state });
    env.log.info(
      `waiting for ${what}: ${observation.state}; next check in ${formatDuration(wait.intervalMs)} (${formatDuration(wait.timeoutMs - elapsed)} left)`,
    );
    await env.sleep(wait.intervalMs, env.signal);
    observation = await check();
    polls += 1;
  }
  return { observation, polls };
}

export function notMet(
  what: string,
  observation: Observation<unknown>,
  wait: WaitSpec | undefined,
  polls: number,
): string {
  const after = wait ? ` after ${polls} checks over ${formatDuration(wait.timeoutMs)}` : '';
  return `${what} not met${after}: ${observation.state}`;
}
