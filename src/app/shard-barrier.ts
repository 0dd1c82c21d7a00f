// Where a sharded rollout waits at a barrier, as the store tells it: the wave ended everywhere and
// has no verdict yet (report --merge --store reads it parked, or under way while a worker is alive);
// or every site of it not ended waits for its window, its run parked for it, no worker alive.
import type { Manifest } from '../shard/manifest.ts';
import { analysts } from '../shard/verdict.ts';
import type { RunStore } from '../store/store.ts';
import { bakePark } from '../runner/park.ts';
import type { Park } from '../runner/rollout-result.ts';
import type { Report } from '../report/model.ts';
import type { WaveState } from '../shard/wave-log.ts';
import { windowPark, type WindowWait } from '../shard/barrier-reason.ts';

/**
 * Where a sharded rollout waits when wave `wave` ended everywhere and has no verdict: its bake (the
 * analyst parked on it), its analysis (a bake or gates, run by the worker elected, since it stood)
 * or the count of its failures, by a worker not yet there (parked at the barrier, or gone: run the
 * workers again).
 */
export async function barrierPark(
  store: RunStore,
  run: string,
  manifest: Manifest,
  wave: number,
  lastEnd: number,
  failed: number,
): Promise<Park> {
  const elected = await analysts(store, run, wave);
  const since = elected[0]?.at ?? lastEnd;
  // The last analyst parked on the bake (none stood since): the rollout waits for it, as a parked run
  // says it, with its evidence as the analyst parked (the time left then, the wave's sites done).
  const last = elected.at(-1);
  if (last?.bake) {
    const of = manifest.waves[wave - 1]!.length;
    return bakePark(wave, since, last.bake.until - since, last.bake.until - last.at, of - failed, of);
  }
  // No analysis runs after the last wave: only its verdict is written.
  const what =
    manifest.analysis && wave < manifest.waves.length
      ? `the analysis after wave ${wave} and its verdict`
      : `wave ${wave}'s verdict`;
  return { wave, for: 'barrier', since, reason: what, waits: [] };
}

/** A site not ended whose run (its journal's report) parked for its window, as a wait: none otherwise. */
export function windowWaitOf(site: string, report: Report, log: WaveState): WindowWait[] {
  const parked = report.parked;
  if (log.ended.has(site) || parked?.for !== 'window' || !parked.until) return [];
  return [{ site, until: Date.parse(parked.until), since: Date.parse(parked.since) }];
}

/**
 * The park of a sharded rollout whose wave `wave` waits for windows: every site of it not ended
 * (`notEnded`) waits for its window; undefined when one does not (it was cut short: stopped).
 */
export function windowsPark(
  manifest: Manifest,
  wave: number,
  notEnded: readonly string[],
  windows: readonly WindowWait[],
): Park | undefined {
  const waiting = new Set(windows.map((w) => w.site));
  if (windows.length === 0 || notEnded.some((s) => !waiting.has(s))) return undefined;
  return windowPark(wave, manifest.over, windows);
}
