// The rounds of a rollout's analysis after a wave, whoever runs them (the runner between its waves,
// a sharded run's elected worker): `count` rounds `interval` apart, each running the gates once
// for the values the wave rolled out; more failed rounds than the limit fail the analysis. A round
// is the caller's to run: it says what failed in it.
import type { Rollout } from '../pipeline/model.ts';

export interface RoundsVerdict {
  passed: boolean;
  rounds: number;
  failedRounds: number;
  text: string;
  /** The wait before a round was interrupted: no verdict was reached. */
  cancelled?: true;
}

export async function gateRounds(
  analysis: NonNullable<Rollout['analysis']>,
  sleep: (ms: number) => Promise<void>,
  /** Runs round `round` of the gates; what failed in it, each in words ("name: message"). */
  runRound: (round: number) => Promise<string[]>,
  /** Told of a failed round the limit lets pass. */
  withinLimit?: (round: number) => void,
): Promise<RoundsVerdict> {
  const { count, intervalMs, failureLimit, gates } = analysis;
  // A bake alone (analysis: { bake: 12h }): nothing to run again once it elapsed.
  if (gates.length === 0) return { passed: true, rounds: 0, failedRounds: 0, text: 'baked; no gates to run again' };
  let failedRounds = 0;
  let text = `${count} round(s) of ${gates.join(', ')} held`;
  for (let round = 1; round <= count; round++) {
    try {
      await sleep(intervalMs);
    } catch {
      return { passed: false, rounds: round - 1, failedRounds, text: 'cancelled', cancelled: true };
    }
    const failures = await runRound(round);
    if (failures.length === 0) continue;
    failedRounds += 1;
    text = `round ${round}/${count}: ${failures.join('; ')}`;
    if (failedRounds > failureLimit) return { passed: false, rounds: round, failedRounds, text };
    withinLimit?.(round);
  }
  return {
    passed: true,
    rounds: count,
    failedRounds,
    text: failedRounds ? `${failedRounds} failed round(s), within the limit of ${failureLimit}; last: ${text}` : text,
  };
}
