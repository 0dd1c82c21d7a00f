// Backoff for the implicit retries of idempotent (GET) calls on transient faults.

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 8_000 };

/**
 * Delay before retry number `retry` (1-based): exponential, with jitter in [50%, 100%] so that the
 * instances of a matrix do not retry in step. A server's Retry-After (seconds) wins when it is
 * longer, up to maxDelayMs.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number, retryAfter?: string): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.round(exponential * (0.5 + random() / 2));
  const seconds = retryAfter === undefined ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds > 0) return Math.max(jittered, Math.min(policy.maxDelayMs, seconds * 1000));
  return jittered;
}

/** Sleeps `ms`, or rejects when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
