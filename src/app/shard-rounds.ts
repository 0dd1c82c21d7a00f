// The analysis rounds of a sharded run's waves, as each wave's analyst kept them in the store: the
// steps a merged report lists after the wave they followed.
import { z } from 'zod';
import { ReportStep } from '../report/model.ts';
import { readShardRecord, shardKeys } from '../shard/manifest.ts';
import type { Verdict } from '../shard/verdict.ts';
import type { RunStore } from '../store/store.ts';

/** The instances of each wave's analysis rounds, as its analyst kept them (a key of the wave's rounds alone), in the order of the waves. */
export async function analysisRounds(
  store: RunStore,
  run: string,
  verdicts: readonly (Verdict | undefined)[],
): Promise<ReportStep[]> {
  const rounds: ReportStep[] = [];
  for (const v of verdicts)
    if (v?.steps?.startsWith(shardKeys(run).rounds(v.wave, '')))
      rounds.push(...((await readShardRecord(store, v.steps, z.array(ReportStep), "an analysis's rounds")) ?? []));
  return rounds;
}
