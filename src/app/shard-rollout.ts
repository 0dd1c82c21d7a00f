// A sharded rollout as the store's waves' verdicts tell it (report --merge --store, and each
// worker's report at its end): each wave decided (done, failed within its budget, halted) or not,
// and where it stands (halted, parked or under way there, the later waves not started).
import type { Report } from '../report/model.ts';
import type { Manifest } from '../shard/manifest.ts';
import type { Verdict } from '../shard/verdict.ts';

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
    halted: at >= 0 ? { wave: at + 1, reason: verdicts[at]!.halted! } : null,
    stopped: null,
    parked: null,
  };
}
