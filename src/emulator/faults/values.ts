// Readers of fault setting values, from `--fault` text and from a posted rule object: durations,
// whole numbers, words, flags. Each wrong value is a UsageError (exit 2, HTTP 400) naming it.
import { MAX_TIMER_MS, shownDuration, TIMER_LIMIT } from '../../duration.ts';
import { UsageError } from '../../errors.ts';

const DURATION = /^(\d+)(ms|s|m)?$/;

export function textDuration(value: string, keyword: string): number {
  const m = DURATION.exec(value);
  const ms = m ? Number(m[1]) * (m[2] === 's' ? 1000 : m[2] === 'm' ? 60_000 : 1) : undefined;
  // A latency, a chunk's delay or an event's delay: a timer, no longer than one holds.
  if (ms === undefined || ms > MAX_TIMER_MS)
    throw new UsageError(
      'BAD_FAULT',
      `--fault ${keyword}=${shownDuration(value)}: ${ms === undefined ? 'not a duration' : TIMER_LIMIT}`,
      { hint: 'write 250ms, 2s or 1m' },
    );
  return ms;
}

export function textInteger(value: string, keyword: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError('BAD_FAULT', `--fault ${keyword}=${value}: not a whole number`);
  return Number(value);
}

const wrong = (field: string, wanted: string, value: unknown) =>
  new UsageError('BAD_FAULT', `fault rule: ${field} must be ${wanted}, not ${JSON.stringify(value)}`);

export function jsonInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw wrong(field, 'a whole number', value);
  return value;
}

export function jsonString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw wrong(field, 'a string', value);
  return value;
}

export function jsonFlag(value: unknown, field: string): true {
  if (value !== true) throw wrong(field, 'true', value);
  return true;
}

/** A status within `[low, high]`, else a UsageError saying `what` (from text: `--fault KEYWORD=N: ...`). */
export function inRange(status: number, low: number, high: number, complaint: string): number {
  if (status < low || status > high) throw new UsageError('BAD_FAULT', complaint);
  return status;
}
