// Durations as the product contract writes them: 90s, 30m, 2h, 1h30m, 250ms.

const PART = /(\d+)(ms|h|m|s)/g;
const UNIT: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** The longest a timer holds (2^31-1 ms, about 596h): Node fires a longer one after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** What a duration that becomes a timer is held to, for a message. */
export const TIMER_LIMIT = 'at most 596h (2^31-1 ms, the longest a timer holds)';

/**
 * The longest duration given anywhere (a freeze, a bake, a write's expected time, a flag): a date
 * that far on is still a date. Past it, hundreds of digits make Infinity, or a number no date holds.
 */
export const MAX_DURATION_MS = 876_000 * 3_600_000;
/** What every duration is held to, for a message. */
export const DURATION_LIMIT = 'at most 876000h (100 years)';

/** A duration's text in a message: one of hundreds of digits is shown by its start and length. */
export const shownDuration = (text: string): string =>
  text.length <= 24 ? text : `${text.slice(0, 12)}… (${text.length} characters)`;

/**
 * Waits `ms` with a clock's `sleep`, in waits of at most MAX_TIMER_MS each: a wait that may be
 * longer than a timer holds (a bake, which park-after may let be waited: neither is held to 596h,
 * since with a run store a longer one parks). One wait when it fits, as `sleep(ms)` itself.
 */
export async function sleepWhole(
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  ms: number,
  signal: AbortSignal,
): Promise<void> {
  let left = ms;
  for (; left > MAX_TIMER_MS; left -= MAX_TIMER_MS) await sleep(MAX_TIMER_MS, signal);
  await sleep(left, signal);
}

/** Milliseconds of a duration, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (!/^(\d+(ms|h|m|s))+$/.test(value)) return undefined;
  let total = 0;
  for (const [, amount, unit] of value.matchAll(PART)) total += Number(amount) * UNIT[unit!]!;
  return total;
}

/** A duration for people: 2h, 1h30m, 45s, 250ms. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms % 1_000 === 0 ? 0 : 1)}s`;
  const seconds = Math.round(ms / 1_000);
  const h = Math.floor(seconds / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = seconds % 60;
  return [h ? `${h}h` : '', m ? `${m}m` : '', s ? `${s}s` : ''].join('') || '0s';
}
