// A retried index's earlier attempts, read at the end of the attempt that runs now: the sites they
// ended failed (and this attempt did not run again), which its exit and its reports say too (exit
// 1), not only the attempt that ran them. Read from the waves' logs; a store that fails at that read
// stops the worker with its report as it stands (WorkerStopped): every report it was asked for is
// written all the same, then the fault is said.
import type { Report } from '../report/model.ts';
import type { Manifest } from '../shard/manifest.ts';
import { WaveLog } from '../shard/wave-log.ts';
import type { WorkerResult } from '../shard/worker.ts';
import type { RunStore } from '../store/store.ts';
import { WorkerStopped } from './shard-worker-report.ts';

/** What the fault stopped, as the worker says it. */
const UNREAD = "its earlier attempts' failed sites could not be read from the store";

/**
 * The sites whose end index `index` recorded as a failure in an earlier attempt (not run by this
 * one); WorkerStopped with the report `cut` gives, when the store fails at the read.
 */
export async function endedFailed(
  store: RunStore,
  manifest: Manifest,
  index: number,
  result: WorkerResult,
  cut: () => Report,
): Promise<{ site: string; wave: number }[]> {
  const ranNow = new Set(result.ran.map((r) => r.site));
  const found: { site: string; wave: number }[] = [];
  try {
    for (let wave = 1; wave <= manifest.waves.length; wave++) {
      const { entries } = await new WaveLog(store, manifest.run, wave).read();
      for (const e of entries)
        if (e.kind === 'ended' && e.outcome === 'failure' && e.worker === index && !ranNow.has(e.site))
          found.push({ site: e.site, wave });
    }
  } catch (fault) {
    throw new WorkerStopped(fault, cut(), UNREAD);
  }
  return found;
}
