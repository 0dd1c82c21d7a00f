// Matrix expansion: one instance per combination, in key order; `--only KEY=VALUE` keeps the
// instances with that value, and must select at least one instance of some matrix step.
import { UsageError } from '../errors.ts';
import { didYouMean } from '../pipeline/diagnostics.ts';
import type { Pipeline } from '../pipeline/model.ts';

export type MatrixValue = string | number | boolean;
export type Combination = Record<string, MatrixValue>;

export function expandMatrix(matrix: Record<string, MatrixValue[]> | undefined): Combination[] {
  if (!matrix) return [{}];
  let combos: Combination[] = [{}];
  for (const [key, values] of Object.entries(matrix)) {
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  return combos;
}

export function onlyFilter(combination: Combination, only: Readonly<Record<string, string>>): boolean {
  return Object.entries(only).every(([k, v]) => !(k in combination) || String(combination[k]) === v);
}

export function describeCombination(c: Combination): string {
  const parts = Object.entries(c).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * Refuses an `--only KEY=VALUE` that selects nothing: a key no matrix step has, or a value no
 * instance has. A typo would otherwise drop the step silently (nothing deployed, exit 0).
 */
export function checkOnly(pipeline: Pipeline, only: Readonly<Record<string, string>>): void {
  const values = new Map<string, Set<string>>();
  for (const step of pipeline.steps) {
    for (const [key, list] of Object.entries(step.matrix ?? {})) {
      const seen = values.get(key) ?? new Set<string>();
      for (const v of list) seen.add(String(v));
      values.set(key, seen);
    }
  }
  for (const [key, value] of Object.entries(only)) {
    const known = values.get(key);
    if (!known) {
      const guess = didYouMean(key, [...values.keys()]);
      throw new UsageError('BAD_ONLY', `--only ${key}=${value}: no matrix step has the key "${key}"`, {
        hint: guess ? `did you mean --only ${guess}=…?` : values.size ? `matrix keys: ${[...values.keys()].join(', ')}` : 'the pipeline has no matrix step: drop --only',
      });
    }
    if (!known.has(value)) {
      const guess = didYouMean(value, [...known]);
      throw new UsageError('BAD_ONLY', `--only ${key}=${value}: no instance has ${key}=${value}`, {
        hint: `${guess ? `did you mean ${key}=${guess}? ` : ''}values of ${key}: ${[...known].join(', ')}`,
      });
    }
  }
}
