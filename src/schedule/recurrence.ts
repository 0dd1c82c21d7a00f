// A recurrence read by croner (a cron expression of 5 or 6 fields; `#` for the nth weekday:
// `0 2 * * SAT#3` is 02:00 on the third Saturday, `L` for the last) in an IANA time zone, each
// occurrence open for a duration of real time (a 4h window over a DST change lasts 4 hours). And
// dated ranges, written in a zone. Both give intervals [start, end) the schedule asks two things
// of: the one holding an instant, and the next one to start after it.
import { Cron } from 'croner';
import { instantsOf } from './wall-time.ts';

/** An interval of time, epoch ms: from `start` (included) to `end` (excluded). */
export interface Interval {
  start: number;
  end: number;
}

/** What a schedule asks of a source of intervals. */
export interface Intervals {
  /** The interval holding `t` (start <= t < end), the one ending last. */
  holding(t: number): Interval | undefined;
  /** The first interval to start after `t` (strictly). */
  after(t: number): Interval | undefined;
}

/** Why a zone is no IANA time zone this runtime knows, or undefined. */
export function zoneProblem(zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return undefined;
  } catch {
    return `"${zone}" is no IANA time zone (Europe/Berlin, America/New_York, UTC)`;
  }
}

const crons = new Map<string, Cron>();

function cronOf(cron: string, zone: string): Cron {
  const key = `${zone} ${cron}`;
  let found = crons.get(key);
  if (!found) {
    found = new Cron(cron, { timezone: zone, paused: true });
    crons.set(key, found);
  }
  return found;
}

/** Why croner refuses a cron expression, or undefined. */
export function cronProblem(cron: string): string | undefined {
  try {
    // croner says no occurrence before the year 3000 (February 31st): a window that never opens.
    const job = new Cron(cron, { timezone: 'UTC', paused: true });
    return job.nextRun() === null ? 'no date matches it: it never opens' : undefined;
  } catch (error) {
    return (error as Error).message.replace(/^CronPattern: /, '');
  }
}

/** Occurrences of a cron expression in a zone, each open for `durationMs`. */
export function recurring(cron: string, zone: string, durationMs: number): Intervals {
  const job = cronOf(cron, zone);
  const at = (start: number | undefined): Interval | undefined =>
    start === undefined ? undefined : { start, end: start + durationMs };
  return {
    holding(t) {
      // The latest occurrence at or before t: every occurrence lasts as long, so it ends last.
      const latest = at(job.previousRuns(1, new Date(t + 1))[0]?.getTime());
      return latest && latest.end > t ? latest : undefined;
    },
    after: (t) => at(job.nextRun(new Date(t))?.getTime()),
  };
}

/** Dated ranges (a quarter close), epoch ms. */
export function dated(ranges: readonly Interval[]): Intervals {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  return {
    holding(t) {
      let found: Interval | undefined;
      for (const r of sorted) if (r.start <= t && r.end > t && (!found || r.end > found.end)) found = r;
      return found;
    },
    after: (t) => sorted.find((r) => r.start > t),
  };
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?$/;
const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether an ISO 8601 time names a day its month has and a time of day (Date.parse rolls 02-30 and 24:00 over). */
function realDate(text: string): boolean {
  const [y, mo, d, h, mi, se = 0] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/
    .exec(text)!
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const days = new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
  return mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= days && h! <= 23 && mi! <= 59 && se <= 59;
}

/** An ISO 8601 date-time with its offset (`...Z`, `+02:00`) as epoch ms; undefined for any other text, or a day or time of day that does not exist. */
export function isoInstant(text: string): number | undefined {
  const ms = OFFSET.test(text) && realDate(text) ? Date.parse(text) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * A date or date-time as epoch ms: `2026-12-20` or `2026-12-20T18:00` read in `zone`, or with its own
 * offset (`...Z`, `+02:00`). A local time a change of offset repeats (01:30 on the fall-back night)
 * or skips (02:30 on the spring-forward night) is read on `side`: the earliest instant it can name
 * (a skipped time: the first after it), or the latest (a skipped time read with the offset before).
 */
export function instantOf(text: string, zone: string, side: 'earliest' | 'latest' = 'earliest'): number | undefined {
  if (OFFSET.test(text)) return isoInstant(text);
  const m = LOCAL.exec(text);
  if (!m || zoneProblem(zone)) return undefined;
  const local = `${m[1]}T${(m[2] ?? '00:00').padEnd(8, ':00')}`;
  // A day the month does not have (02-30) is refused, not rolled over.
  const wall = new Date(`${local}Z`);
  if (Number.isNaN(wall.getTime()) || wall.toISOString().slice(0, 19) !== local) return undefined;
  return instantsOf(wall.getTime(), zone)[side];
}
