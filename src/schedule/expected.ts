// How long a write is expected to take: the step's declared `expected:` (it wins); else the p95 of
// that step type's earlier write durations at the site (the journals hold each); else the step's
// own bound: its `longest:` (the longest its write can take at the server), else its `timeout:`
// (past which the call is aborted: it bounds the call, not the server's work, which may go on);
// else an hour. Without evidence the guess is long on purpose: a write refused at the end of a
// window waits for the next one, a write started that overruns it changes a site outside its
// agreed time.
export const DEFAULT_EXPECTED_MS = 3_600_000;
/** The fewest earlier durations a p95 is read from; fewer are not evidence. */
export const MIN_SAMPLES = 3;

/** The 95th percentile (nearest rank) of durations, or undefined for none. */
export function p95(samples: readonly number[]): number | undefined {
  const valid = samples.filter((s) => Number.isFinite(s) && s >= 0).sort((a, b) => a - b);
  if (valid.length === 0) return undefined;
  return valid[Math.min(valid.length, Math.ceil(0.95 * valid.length)) - 1];
}

export type ExpectedSource = 'declared' | 'history' | 'timeout' | 'longest' | 'default';

export interface Expected {
  ms: number;
  source: ExpectedSource;
  /** How many earlier durations the p95 was read from (source history). */
  samples?: number | undefined;
}

export function expectedOf(step: {
  declaredMs?: number | undefined;
  history?: readonly number[] | undefined;
  timeoutMs?: number | undefined;
  longestMs?: number | undefined;
}): Expected {
  if (step.declaredMs !== undefined) return { ms: step.declaredMs, source: 'declared' };
  const history = step.history ?? [];
  const p = history.length >= MIN_SAMPLES ? p95(history) : undefined;
  if (p !== undefined) return { ms: p, source: 'history', samples: history.length };
  if (step.longestMs !== undefined) return { ms: step.longestMs, source: 'longest' };
  if (step.timeoutMs !== undefined) return { ms: step.timeoutMs, source: 'timeout' };
  return { ms: DEFAULT_EXPECTED_MS, source: 'default' };
}
