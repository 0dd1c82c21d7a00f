// A local (wall-clock) time in an IANA zone as the instants it names: one on most days, two on the
// night a change from daylight saving time repeats an hour (01:30 happens twice), none on the night
// a change to it skips one (02:30 never happens: the first instant after it is where the skip ends).
// A freeze reads its dates on the safe side: from the earliest instant to the latest.

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let found = formats.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, found);
  }
  return found;
}

/** The wall-clock time at instant `t` in `zone`, as epoch ms of the same fields in UTC (ms dropped). */
export function wallOf(t: number, zone: string): number {
  const f: Record<string, number> = {};
  for (const p of formatOf(zone).formatToParts(new Date(t))) if (p.type !== 'literal') f[p.type] = Number(p.value);
  // setUTCFullYear, not Date.UTC: that reads a year below 100 as 19xx.
  const wall = new Date(0);
  wall.setUTCFullYear(f.year!, f.month! - 1, f.day!);
  return wall.setUTCHours(f.hour!, f.minute!, f.second!, 0);
}

const DAY = 86_400_000;

/**
 * The instants whose wall-clock time in `zone` is `wall` (epoch ms of the local fields read as UTC,
 * whole seconds): the earliest and the latest. A time a change skips has none: `earliest` is the
 * instant the skip ends (the first time after it), `latest` that time read with the offset before
 * the change (as far past the skip's end as the time was past its start).
 */
export function instantsOf(wall: number, zone: string): { earliest: number; latest: number } {
  // Read with the offset a day before and a day after: a zone changes its offset at most once between.
  const candidates = [wall - DAY, wall + DAY].map((t) => wall - (wallOf(t, zone) - t));
  const exact = candidates.filter((t) => wallOf(t, zone) === wall).sort((a, b) => a - b);
  if (exact.length > 0) return { earliest: exact[0]!, latest: exact.at(-1)! };
  // Skipped: between the two readings the offset changes; the first instant past `wall` is where the skip ends.
  let [lo, hi] = [Math.min(...candidates), Math.max(...candidates)];
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (wallOf(mid, zone) > wall) hi = mid;
    else lo = mid;
  }
  return { earliest: hi, latest: Math.max(...candidates) };
}
