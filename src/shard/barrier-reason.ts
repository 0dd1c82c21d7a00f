// What a worker parked at its wave's barrier says it waits for, written in one place and read
// back in one: the worker's words (the first five sites named, and how many there are), each site
// not ended a wait of its park (parked.waits: every one, in the JSON report), and report --merge
// F... --expect-shards N dropping from them the sites another worker's report shows ended (that
// worker read the store after this one parked).
import { formatDuration } from '../duration.ts';

/** What of a park a barrier's wait is told by (runner/rollout-result.ts Park): its reason, and each wait. */
interface BarrierPark {
  reason: string;
  waits: { value: string | null; what: string; evidence: string[] }[];
}

/** How many sites a reason names; the rest are counted, and each is in the park's waits. */
const NAMED = 5;

/** A duration in whole seconds ("0s" under half of one): a wait's words, not its clock's milliseconds. */
const whole = (ms: number) => (ms < 500 ? '0s' : formatDuration(Math.round(ms / 1_000) * 1_000));

/**
 * A barrier's wait in words, for barrierReason's `after`: what the worker waited at this barrier,
 * what it waited in all (earlier waits spent part of its bound), and the bound.
 */
export const barrierWaited = (hereMs: number, allMs: number, limitMs: number): string =>
  `${whole(hereMs)} at this barrier (${whole(allMs)} waited in all, --shard-wait ${formatDuration(limitMs)})`;

/** The wait for the sites of a wave not ended (the first five named), or, all ended, for its verdict; `after` is the wait in words. */
export function barrierReason(
  wave: number,
  over: string,
  open: readonly string[],
  after: string,
  count = open.length,
): string {
  if (count === 0) return `the verdict of wave ${wave} after ${after}`;
  const shown = open.slice(0, NAMED);
  // Every site given (a worker's own list): the rest counted, and where they are. Fewer than the
  // count (the five an earlier version's reason named): the rest are unknown here.
  const more = count - shown.length;
  const rest =
    more <= 0 ? '' : open.length > shown.length ? ` and ${more} more: each in the JSON report's parked.waits` : ', ...';
  return `wave ${wave}'s ${count} ${over}(s) not ended (${shown.join(', ')}${rest}) after ${after}`;
}

/** Each site a worker parked at the barrier waits for, as its park's waits. */
export const barrierWaits = (over: string, open: readonly string[]): BarrierPark['waits'] =>
  open.map((site) => ({ value: site, what: `${over} ${site} not ended`, evidence: [] }));

// `after` as written, read back whole: "10m at this barrier (30m waited in all, --shard-wait 30m)",
// or an earlier version's bound alone ("30m"); told again as it was.
const NOT_ENDED = /^wave (\d+)'s (\d+) (.+)\(s\) not ended \((.*)\) after (.+)$/;
const MORE = / and \d+ more: each in the JSON report's parked\.waits$/;

/**
 * The park without the sites in `ended`. Its waits name every site (a worker's report since they
 * do): the reason is told again of those left. A report of an earlier version names five in its
 * reason and counts the rest: those it named are left out, the count less them (a site past the
 * first five it did not name stays counted: which ones they are is not in the reason). A reason of
 * other words, or one that names a site in `ended` no more, is given back as it was.
 */
export function barrierParkWithout<P extends BarrierPark>(park: P, ended: ReadonlySet<string>): P {
  const m = NOT_ENDED.exec(park.reason);
  if (!m) return park;
  const [, wave, count, over, list, after] = m as unknown as [string, string, string, string, string, string];
  if (park.waits.length > 0) {
    const waits = park.waits.filter((w) => w.value === null || !ended.has(w.value));
    if (waits.length === park.waits.length) return park;
    const open = waits.flatMap((w) => (w.value === null ? [] : [w.value]));
    return { ...park, reason: barrierReason(Number(wave), over, open, after), waits };
  }
  const more = list.endsWith(', ...');
  const named = (more ? list.slice(0, -', ...'.length) : list.replace(MORE, '')).split(', ');
  const open = named.filter((site) => !ended.has(site));
  if (open.length === named.length) return park;
  const left = Number(count) - (named.length - open.length);
  // The sites it did not name may be among those still open: only the count says so.
  const reason = barrierReason(Number(wave), over, open, after, more ? Math.max(left, open.length) : open.length);
  return { ...park, reason };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A site whose run parked for its window: the next opening it fits in, and since when it waits (its run's first park). */
export interface WindowWait {
  site: string;
  until: number;
  since: number;
}

/** What a sharded rollout waits for when sites' runs parked for their windows: the earliest first, five named, the rest counted. */
export function windowReason(over: string, waits: readonly WindowWait[]): string {
  const sorted = [...waits].sort((a, b) => a.until - b.until);
  const named = sorted.slice(0, NAMED).map((w) => `${over} ${w.site}'s window (opens at ${iso(w.until)})`);
  const more = sorted.length - named.length;
  return `${named.join(', ')}${more > 0 ? ` and ${more} more: each in the JSON report's parked.waits` : ''}`;
}

/** Each site a sharded rollout waits for the window of, as its park's waits (the worker's, and the store's merge). */
export const windowWaits = (over: string, waits: readonly WindowWait[]): BarrierPark['waits'] =>
  [...waits]
    .sort((a, b) => a.until - b.until)
    .map((w) => ({
      value: w.site,
      what: `${over} ${w.site}'s window (opens at ${iso(w.until)})`,
      evidence: [`its write waits for the next window it fits in, at ${iso(w.until)}`],
    }));

/** The park of a sharded rollout at wave `wave` waiting for its sites' windows: from the earliest wait, until the first opening. */
export const windowPark = (wave: number, over: string, waits: readonly WindowWait[]) => ({
  wave,
  for: 'window' as const,
  since: Math.min(...waits.map((w) => w.since)),
  until: Math.min(...waits.map((w) => w.until)),
  reason: windowReason(over, waits),
  waits: windowWaits(over, waits),
});
