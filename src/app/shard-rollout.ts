// A sharded rollout as the store's waves' verdicts tell it (report --merge --store, and each
// worker's report at its end): each wave decided (done, failed within its budget, halted) or not,
// and where it stands (halted, parked or under way there, the later waves not started).
import type { Report } from '../report/model.ts';
import type { Manifest } from '../shard/manifest.ts';
import type { Verdict } from '../shard/verdict.ts';
import type { WaveLog } from '../shard/wave-log.ts';
import { abortHalt, abortOf, earlierAbortVerdict, haltOf } from '../shard/abort.ts';

/** Wave `wave` (1-based) is where the rollout stands (halted or parked there): the waves after it not started; the wave, to fill in. */
export function standsAt(
  rollout: NonNullable<Report['rollout']>,
  wave: number,
  outcome: 'halted' | 'parked' | 'under-way',
) {
  for (const w of rollout.waves) if (w.wave > wave) w.outcome = 'not-started';
  const at = rollout.waves[wave - 1]!;
  at.outcome = outcome;
  return at;
}

/** The rollout as the waves' verdicts tell it: each wave decided (done, failed within its budget, halted) or not. */
export function rolloutOf(
  manifest: Manifest,
  verdicts: readonly (Verdict | undefined)[],
): NonNullable<Report['rollout']> {
  const at = verdicts.findIndex((v) => v?.halted !== undefined);
  return {
    over: manifest.over,
    waves: manifest.waves.map((values, w) => {
      const v = verdicts[w];
      return {
        wave: w + 1,
        values,
        // A wave without a verdict: after the halt, never started; otherwise still running (or its workers gone).
        outcome: v
          ? v.halted
            ? 'halted'
            : v.failed.length
              ? 'failed-within-budget'
              : 'done'
          : at >= 0 && w > at
            ? 'not-started'
            : 'cancelled',
        failed: v?.failed ?? [],
        budget: manifest.budgets[w]!,
        // Its analysis, as the verdict's worker ran it (none after the last wave, or past the budget).
        analysis: v?.analysis ?? null,
      };
    }),
    halted: at >= 0 ? haltOf(verdicts[at]!)! : null,
    stopped: null,
    parked: null,
  };
}

/**
 * The operator's abort (decide --abort) in the log of the wave the rollout stands at: the rollout
 * halted there once nothing of the wave runs: no worker alive, or every site of it started ended
 * (a site a worker gone left is never taken over after an abort). Its verdict may not be written
 * (the worker that would write it gone): the log says it. `logs`: each wave's log (the reader's,
 * read on after this read).
 */
export async function haltIfAborted(
  manifest: Manifest,
  logs: readonly WaveLog[],
  verdicts: readonly (Verdict | undefined)[],
  rollout: NonNullable<Report['rollout']>,
  alive: boolean,
): Promise<void> {
  const at = rollout.halted ? -1 : verdicts.findIndex((v) => v === undefined);
  if (at < 0) return;
  const log = await logs[at]!.read();
  if (!log.aborted || (alive && log.unended.size > 0)) return;
  rollout.halted = abortHalt(at + 1, log.aborted);
  standsAt(rollout, at + 1, 'halted').failed = manifest.waves[at]!.filter((s) => log.failed.has(s));
}

/**
 * The abort a halted verdict of an earlier enginectl says in words alone (earlierAbortVerdict): its
 * fields are the abort entry of its wave's log, from which that verdict was made, never read back
 * from the words (an identity or a reason may hold what they put after it). `log`: wave K's log.
 */
export async function earlierAbort(
  verdicts: readonly (Verdict | undefined)[],
  log: (wave: number) => WaveLog,
  rollout: NonNullable<Report['rollout']>,
): Promise<void> {
  const halted = rollout.halted;
  const verdict = halted && verdicts[halted.wave - 1];
  if (!halted || !verdict || !earlierAbortVerdict(verdict)) return;
  const entry = (await log(halted.wave).read()).aborted;
  if (entry) halted.aborted = abortOf(entry);
}
