// When a lease's holder is gone, judged by a waiter whose clock may differ from the holder's. The
// holder writes its expiry on its own clock and stops sending once that clock passes it; a waiter
// that read the expiry against its own clock alone would take over early by however far ahead its
// clock runs, while the holder may still send (a write after the takeover's verify, never read
// back). So a waiter confirms the lapse on its clock: the record unchanged for the holder's ttl
// since this waiter first read it (the holder wrote it no later, so its clock has passed the
// expiry by then, whatever the offset between the clocks), or its expiry a whole ttl past on this
// clock (long gone: a skew under the ttl assumed, so a holder dead for hours is taken at once).
import { formatDuration } from '../duration.ts';

/** A lease's newest record as a waiter first read it: its place in the sequence, and when, on the waiter's clock. */
export interface FirstSeen {
  seq: number;
  at: number;
}

export interface Lapse {
  /** Gone: taken over now. */
  confirmed: boolean;
  /** When it is confirmed, on this clock, unless the record changes first. */
  at: number;
  /** How it was confirmed, for the takeover's evidence. */
  how: string;
  /** What a waiter says while it confirms it. */
  waiting: string;
}

/** A lease record as its holder wrote it: when, and until when, on its clock. */
type Held = { at: number; expiresAt: number };

/** The holder's ttl: its expiry less when it wrote the record. */
export const heldTtl = (record: Held) => Math.max(0, record.expiresAt - record.at);

/** When a reader that has not watched the record takes its lapse as sure: its expiry a whole ttl past. */
export const longPastAt = (record: Held) => record.expiresAt + heldTtl(record);

/** The lapse of a record whose expiry passed on this clock (`now`); undefined while it has not. */
export function lapseOf(record: Held, seen: FirstSeen, now: number): Lapse | undefined {
  if (now <= record.expiresAt) return undefined;
  const ttl = heldTtl(record);
  const unchangedSince = seen.at + ttl;
  const longPast = longPastAt(record);
  const at = Math.min(unchangedSince, longPast);
  const confirmed = now >= at;
  const how =
    now >= unchangedSince
      ? `its record unchanged for its ttl of ${formatDuration(ttl)} on this runner's clock`
      : `more than its ttl of ${formatDuration(ttl)} before, on this runner's clock`;
  return {
    confirmed,
    at,
    how,
    waiting: confirmed
      ? ''
      : `; its expiry passed on this runner's clock, and it may be taken over from ${new Date(at).toISOString()} on (in its turn in the queue) unless renewed before (its record unchanged for its ttl on this clock, whatever the skew between the clocks)`,
  };
}

/** A holder's expiry past on this runner's clock (`now`), as a refusal says it; undefined while it is not past. */
export interface PastExpiry {
  /** The hold, as its holder wrote it. */
  said: string;
  /** What to check of the clocks. */
  clocks: string;
}

/**
 * An expiry read past on this clock, a live holder's still when its clock is behind this one: said
 * as the holder's renewal on its own clock, past on this one by how much, never "held until" an
 * instant gone by; the hint to check the clocks of this runner and the holder's `host`.
 */
export function pastExpiry(record: Held, now: number, host: string): PastExpiry | undefined {
  if (now <= record.expiresAt) return undefined;
  const by = formatDuration(now - record.expiresAt);
  return {
    said: `whose hold was renewed until ${new Date(record.expiresAt).toISOString()} on its clock (past on this runner's by ${by}: the clocks are apart, or it renews still)`,
    clocks: `if it still renews, this runner's clock runs more than ${by} ahead of ${host}'s: set them right (NTP), a lease relies on clocks apart by less than its ttl (${formatDuration(heldTtl(record))})`,
  };
}
