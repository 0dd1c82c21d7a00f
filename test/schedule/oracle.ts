// The property tests' oracle of whether a write fits: every occurrence croner gives in a span
// around it, merged here; it shares no code with src/schedule/schedule.ts.
import { Cron } from 'croner';
import type { ScheduleSpec } from '../../src/schedule/spec.ts';

const H = 3_600_000;

type Iv = { start: number; end: number };

/** Every occurrence croner gives starting in [from, to], each open `durationMs`. */
const jobs = new Map<string, Cron>();
function occurrences(c: string, zone: string, durationMs: number, from: number, to: number): Iv[] {
  const key = `${zone} ${c}`;
  const job = jobs.get(key) ?? new Cron(c, { timezone: zone, paused: true });
  jobs.set(key, job);
  const out: Iv[] = [];
  for (let next = job.nextRun(new Date(from - 1)); next && next.getTime() <= to; next = job.nextRun(next))
    out.push({ start: next.getTime(), end: next.getTime() + durationMs });
  return out;
}

/** The end of the merged union of intervals holding t (the span's end at most), or undefined. */
function mergedEnd(list: Iv[], t: number): number | undefined {
  const sorted = [...list].sort((a, b) => a.start - b.start);
  let end: number | undefined;
  for (const iv of sorted) {
    if (iv.start > (end ?? t)) break;
    if (iv.end > (end ?? t)) end = Math.max(end ?? t, iv.end);
  }
  return end;
}

export function oracleFits(spec: ScheduleSpec, site: string, t: number, need: number): boolean {
  const from = t - 13 * H;
  const to = t + need + 13 * H;
  const applies = (m: { matrix?: { site?: readonly unknown[] } | undefined }) =>
    !m.matrix?.site || m.matrix.site.includes(site);
  const windows = spec.windows.filter(applies);
  if (windows.length > 0) {
    const end = mergedEnd(
      windows.flatMap((w) => occurrences(w.cron, w.zone, w.durationMs, from, to)),
      t,
    );
    if (end === undefined || t + need > end) return false;
  }
  const freezes = spec.freezes
    .filter(applies)
    .flatMap((f) => [
      ...(f.recurrence ? occurrences(f.recurrence.cron, f.recurrence.zone, f.recurrence.durationMs, from, to) : []),
      ...(f.dates ?? []),
    ]);
  return !freezes.some((f) => f.start < t + Math.max(need, 1) && f.end > t);
}
