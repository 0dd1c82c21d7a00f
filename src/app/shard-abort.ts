// The operator's abort of a sharded run (decide --store URL --run ID --abort --reason T): the
// rollout halts where it stands, as one process's aborted run sends nothing more. An abort entry
// goes into the log of every wave not yet decided (a claim is appended only on a log without one,
// so no site starts anywhere after it, nor is one taken over), then the halted verdict of the wave
// the rollout stands at (create-only: a verdict an analyst wrote first stands, and the abort
// halts the next wave). Sites running then end as they stand; the workers end (exit 1).
import { UsageError } from '../errors.ts';
import { readManifest } from '../shard/manifest.ts';
import { readVerdicts, writeVerdict } from '../shard/verdict.ts';
import { WaveLog } from '../shard/wave-log.ts';
import { abortedBy } from '../shard/worker.ts';
import type { RunStore } from '../store/store.ts';

export interface ShardAbort {
  /** The wave the rollout halts at. */
  wave: number;
  reason: string;
}

export async function abortShardedRun(
  store: RunStore,
  run: string,
  decision: { by: string; at: number; reason: string },
): Promise<ShardAbort> {
  const manifest = await readManifest(store, run);
  const verdicts = await readVerdicts(store, manifest);
  const halted = verdicts.findIndex((v) => v?.halted !== undefined);
  const standing = verdicts.findIndex((v) => v === undefined);
  if (halted >= 0 || standing < 0)
    throw new UsageError(
      'NOT_PARKED',
      `sharded run ${run}: its rollout ${halted >= 0 ? `halted at wave ${halted + 1} (${verdicts[halted]!.halted!})` : 'ended: every wave has its verdict'}; there is nothing to abort`,
      { hint: `enginectl report --merge --store URL --run ${run} says how it ended` },
    );
  const entry = { kind: 'abort' as const, ...decision };
  for (let w = standing; w < manifest.waves.length; w++)
    await new WaveLog(store, run, w + 1).append(entry, (s) => !s.aborted);
  const reason = abortedBy(decision);
  // The wave it stands at, unless its analyst wrote that wave's verdict first: then the next.
  for (let w = standing; w < manifest.waves.length; w++) {
    const log = await new WaveLog(store, run, w + 1).read();
    const failed = manifest.waves[w]!.filter((s) => log.failed.has(s));
    const verdict = { wave: w + 1, passed: false, halted: reason, failed, text: 'aborted by the operator' };
    if (await writeVerdict(store, run, { ...verdict, worker: -1, at: decision.at, by: decision.by }))
      return { wave: w + 1, reason };
    const written = (await readVerdicts(store, manifest))[w];
    if (written?.halted) return { wave: w + 1, reason: written.halted };
  }
  // Every wave decided (passed) meanwhile: the rollout ended before the abort.
  throw new UsageError(
    'NOT_PARKED',
    `sharded run ${run}: its rollout ended before the abort; there is nothing to abort`,
    {
      hint: `enginectl report --merge --store URL --run ${run} says how it ended`,
    },
  );
}
