// When a write may run: the windows that allow it and the freezes that deny it (deny beats allow),
// as a site sees them. A site with no window is open except in a freeze; with windows, only inside
// one (overlapping or touching windows are one). A write of a known need (its expected duration
// plus the margin) fits at T when T + need <= the window's end and no freeze overlaps
// [T, T + need). Pure: the instant is given, nothing reads a clock.
import type { Interval, Intervals } from './recurrence.ts';
import type { QuietSpec } from './quiet-spec.ts';

export interface Named {
  /** The name the pipeline gave it (windows: / freezes:). */
  name: string;
  intervals: Intervals;
  /** A window's quiet: (spec.ts): its writes wait for the application to be quiet. */
  quiet?: QuietSpec | undefined;
}

/** What one site (one instance of a step) is under. */
export interface Schedule {
  windows: readonly Named[];
  freezes: readonly Named[];
}

/**
 * How many intervals a window may chain (each starting before the last ends) before its end is
 * taken to be there: a window open for months at a time is read as ending early, so a write is
 * refused, never admitted past an end.
 */
const MAX_CHAIN = 1_000;
/** How far ahead the next opening is looked for, and in how many steps. */
export const HORIZON_MS = 400 * 86_400_000;
const MAX_STEPS = 5_000;

/** The end of the (merged) window holding `t`, Infinity for a site without windows, undefined when closed. */
export function windowEnd(s: Schedule, t: number): number | undefined {
  if (s.windows.length === 0) return Infinity;
  let end: number | undefined;
  let probe = t;
  for (let i = 0; i < MAX_CHAIN; i++) {
    let grown = end ?? probe;
    for (const w of s.windows) {
      const held = w.intervals.holding(probe);
      if (held && held.end > grown) grown = held.end;
    }
    if (grown === (end ?? probe)) break;
    end = probe = grown;
  }
  return end;
}

/** The first freeze that overlaps [t, t + need) (need 0: holds t), with its name. */
export function freezeOver(s: Schedule, t: number, need: number): (Interval & { name: string }) | undefined {
  let first: (Interval & { name: string }) | undefined;
  for (const f of s.freezes) {
    const held = f.intervals.holding(t);
    const next = held ?? f.intervals.after(t);
    const hit = held ?? (next && next.start < t + need ? next : undefined);
    if (hit && (!first || hit.start < first.start || (hit.start === first.start && hit.end > first.end)))
      first = { ...hit, name: f.name };
  }
  return first;
}

/** Whether `t` is inside an allowed window and outside every freeze. */
export function allowedAt(s: Schedule, t: number): boolean {
  return windowEnd(s, t) !== undefined && !freezeOver(s, t, 0);
}

/** The first window to open after `t`, or undefined. */
function nextWindowStart(s: Schedule, t: number): number | undefined {
  let first: number | undefined;
  for (const w of s.windows) {
    const next = w.intervals.after(t);
    if (next && (first === undefined || next.start < first)) first = next.start;
  }
  return first;
}

export type Verdict =
  | { fits: true; end: number }
  | { fits: false; why: 'closed' }
  | { fits: false; why: 'overrun'; end: number; byMs: number }
  | { fits: false; why: 'frozen'; freeze: string; from: number; until: number };

/** Whether a write needing `need` ms, started at `t`, ends inside its window and meets no freeze. */
export function fits(s: Schedule, t: number, need: number): Verdict {
  const freeze = freezeOver(s, t, need);
  if (freeze) return { fits: false, why: 'frozen', freeze: freeze.name, from: freeze.start, until: freeze.end };
  const end = windowEnd(s, t);
  if (end === undefined) return { fits: false, why: 'closed' };
  if (t + need > end) return { fits: false, why: 'overrun', end, byMs: t + need - end };
  return { fits: true, end };
}

/** The first instant at or after `t` a write needing `need` ms fits, within the horizon; undefined if none. */
export function nextFit(s: Schedule, t: number, need: number, horizonMs = HORIZON_MS): number | undefined {
  let at = t;
  for (let i = 0; i < MAX_STEPS && at <= t + horizonMs; i++) {
    const verdict = fits(s, at, need);
    if (verdict.fits) return at;
    let next: number | undefined;
    if (verdict.why === 'frozen') next = verdict.until;
    else if (verdict.why === 'closed') next = nextWindowStart(s, at);
    // The merged window ends too soon: the next one starts after its end.
    else next = nextWindowStart(s, verdict.end);
    if (next === undefined || next <= at) return undefined;
    at = next;
  }
  return undefined;
}

/** The next instant at or after `t` that is allowed (a write of no length fits). */
export function nextOpening(s: Schedule, t: number): number | undefined {
  return nextFit(s, t, 0);
}
