// A rollout's waves and budget as numbers: the values of each wave in order (lists, counts, shares,
// the rest) and how many values of a wave may fail before the rollout halts.
import type { Budget, Rollout } from '../pipeline/model.ts';

/**
 * The values of each wave, in order: lists, counts, shares of all values, the rest; what no wave
 * names is a last wave. Linear in the values (sets, not searches of lists): a sharded run's every
 * worker plans the waves of the whole fleet at its start.
 */
export function wavesOf(rollout: Rollout, values: readonly string[]): string[][] {
  const listed = new Set(rollout.waves.flatMap((w) => ('values' in w ? w.values.map(String) : [])));
  let left = [...values];
  const out: string[][] = [];
  for (const spec of rollout.waves) {
    const free = left.filter((v) => !listed.has(v));
    const inLeft = 'values' in spec ? new Set(left) : undefined;
    const wave =
      'values' in spec
        ? spec.values.map(String).filter((v) => inLeft!.has(v))
        : 'count' in spec
          ? free.slice(0, spec.count)
          : 'share' in spec
            ? free.slice(0, Math.max(1, Math.ceil(spec.share * values.length)))
            : free;
    if ('values' in spec) spec.values.forEach((v) => listed.delete(String(v)));
    const taken = new Set(wave);
    left = left.filter((v) => !taken.has(v));
    if (wave.length > 0) out.push(wave);
  }
  if (left.length > 0) out.push(left);
  return out;
}

/** How many values of a wave of `size` may fail and the rollout go on. */
export function budgetOf(budget: Budget, size: number): number {
  return 'count' in budget ? budget.count : Math.floor(budget.share * size);
}

/** How long the rollout bakes after wave `wave` (1-based) before its analysis: one bake for every wave, or one per wave. */
export function bakeOf(rollout: Rollout, wave: number): number {
  const bakes = rollout.analysis?.bakeMs ?? 0;
  return typeof bakes === 'number' ? bakes : (bakes[wave - 1] ?? 0);
}
