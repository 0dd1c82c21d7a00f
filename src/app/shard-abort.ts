// The operator's abort of a sharded run (decide --store URL --run ID --abort --reason T): the
// rollout halts where it stands, as one process's aborted run sends nothing more. An abort entry
// goes into the log of every wave not yet decided, the last first (so that no wave after the one
// it stands at can start a site while the abort is being written); a claim or a takeover is
// appended only on a log without one, so no site starts anywhere after it. Sites running then end
// as they stand; each worker ends (exit 1), and the wave's verdict (halted) is written by the one
// that finds none of it running. Killed part way, the waves it reached are aborted: run it again.
import { UsageError } from '../errors.ts';
import { readManifest } from '../shard/manifest.ts';
import { readVerdicts } from '../shard/verdict.ts';
import { WaveLog } from '../shard/wave-log.ts';
import { abortOf, type Abort } from '../shard/abort.ts';
import type { RunStore } from '../store/store.ts';

export interface ShardAbort {
  /** The wave the rollout stands at: it halts there (or, when its analyst's verdict passed it meanwhile, at the next). */
  wave: number;
  /** Who aborted it, when, why (the words are made where they are printed: abort.ts abortedBy). */
  aborted: Abort;
}

export async function abortShardedRun(store: RunStore, run: string, decision: Abort): Promise<ShardAbort> {
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
  for (let w = manifest.waves.length - 1; w >= standing; w--)
    await new WaveLog(store, run, w + 1).append(entry, (s) => !s.aborted);
  return { wave: standing + 1, aborted: abortOf(decision) };
}
