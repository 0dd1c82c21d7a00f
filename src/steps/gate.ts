// Polling for gates: check, and while the condition is not met wait `interval` until `timeout`,
// saying what is awaited; fail with the last observed state.
import { formatDuration } from '../duration.ts';
import type { WaitSpec } from './inputs.ts';
import type { StepEnv } from './types.ts';

export interface Observation<T> {
  met: boolean;
  /** What was observed, for the log and the failure: "3 online, 1 on 26.10.3". */
  state: string;
  value: T;
}

export async function pollUntil<T>(
  env: StepEnv,
  what: string,
  wait: WaitSpec | undefined,
  observe: () => Promise<Observation<T>>,
): Promise<{ observation: Observation<T>; polls: number }> {
  const started = env.now();
  let observation = await observe();
  let polls = 1;
  while (!observation.met && wait) {
    const elapsed = env.now() - started;
    // Checks at 0, interval, 2 x interval ... up to the timeout; a second of slack absorbs the
    // time the checks themselves took.
    if (elapsed + wait.intervalMs > wait.timeoutMs + 1_000) break;
    env.log.info(`waiting for ${what}: ${observation.state}; next check in ${formatDuration(wait.intervalMs)} (${formatDuration(wait.timeoutMs - elapsed)} left)`);
    await env.sleep(wait.intervalMs, env.signal);
    observation = await observe();
    polls += 1;
  }
  return { observation, polls };
}

export function notMet(what: string, observation: Observation<unknown>, wait: WaitSpec | undefined, polls: number): string {
  const after = wait ? ` after ${polls} checks over ${formatDuration(wait.timeoutMs)}` : '';
  return `${what} not met${after}: ${observation.state}`;
}
