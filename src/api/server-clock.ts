// A server's clock against this machine's, read from the Date header of its answers (RFC 9110
// 6.6.1: when the server made the answer, in whole seconds). A write's journal record keeps the
// run's (journal/records.ts), and verify reads its own (journal/since-call.ts): the one clock the
// run's machine and the one that verifies, often another CI job's, can both read; and a bake's
// continue on another machine than the run that parked (runner/bake-clock.ts).
import { formatDuration } from '../duration.ts';

/**
 * The server's clock minus this machine's, in ms, as one answer shows it: between `low` and `high`
 * (the Date's whole second, and the time the exchange took, widen it). `at`: when that answer
 * came, on this machine's clock.
 */
export interface ClockSeen {
  low: number;
  high: number;
  at: number;
}

/**
 * What an answer's Date says of the server's clock: it made the answer after the request left
 * (`sentAt`) and before it came (`answeredAt`), at a time of [Date, Date + 1 s). Undefined without
 * a Date that reads as a time.
 */
export function clockSeen(date: string | undefined, sentAt: number, answeredAt: number): ClockSeen | undefined {
  const made = Date.parse(date ?? '');
  if (!Number.isFinite(made)) return undefined;
  return { low: made - answeredAt, high: made + 1_000 - sentAt, at: answeredAt };
}

/** A server's clock as the latest of its answers with a Date showed it. */
export class ServerClock {
  latest: ClockSeen | undefined;

  constructor(readonly now: () => number) {}

  /** An answer came: its Date, and when its request left. */
  answered(date: string | undefined, sentAt: number): void {
    this.latest = clockSeen(date, sentAt, this.now()) ?? this.latest;
  }
}

/** A clock this far off the server's is named; where the other clock is not known, a time across two machines cannot be counted. */
export const SKEW_SAID_MS = 30_000;

/** Whether a clock is known to be far off the server's, whatever the Date's bounds. */
export const farOff = (seen: ClockSeen) => seen.low > SKEW_SAID_MS || seen.high < -SKEW_SAID_MS;

/** How far off the server's a clock is, in words: "this machine's clock is 10m ahead of the server's". */
export function offWords(seen: ClockSeen, whose: string, server = "the server's"): string {
  const off = (seen.low + seen.high) / 2;
  return `${whose} ${formatDuration(Math.abs(off))} ${off < 0 ? 'ahead of' : 'behind'} ${server}`;
}
