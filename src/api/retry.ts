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
 * instances of a matrix do not retry in step. A server's Retry-After wins when it is longer, up to
 * maxDelayMs: seconds, or an HTTP date (RFC 9110 10.2.3) counted from the answer's own `Date`
 * (the server's clock, so this machine's skew does not count; an answer without one has its date
 * form ignored).
 */
export function backoffDelay(
  policy: RetryPolicy,
  retry: number,
  random: () => number,
  retryAfter?: string,
  answerDate?: string,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.round(exponential * (0.5 + random() / 2));
  const ms = retryAfterMs(retryAfter, answerDate);
  if (Number.isFinite(ms) && ms > 0) return Math.max(jittered, Math.min(policy.maxDelayMs, ms));
  return jittered;
}

/** What a Retry-After asks to wait, in ms; NaN when it is neither seconds nor a date. */
function retryAfterMs(value: string | undefined, answerDate: string | undefined): number {
  if (value === undefined) return NaN;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  return Date.parse(value) - (answerDate === undefined ? NaN : Date.parse(answerDate));
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
