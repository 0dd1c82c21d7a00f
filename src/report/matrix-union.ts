// A fleet's matrix made from the values its parts hold: each key's values once, in the order they
// come (the reports of a fleet's jobs, or a sharded run's planned instances).
import type { MatrixValue } from '../pipeline/selection.ts';
import type { Report } from './model.ts';

/** A matrix from (key, value) pairs: each key's values once, in the order they come. */
export function matrixUnion(pairs: Iterable<readonly [string, MatrixValue]>): Report['matrix'] {
  const out: Report['matrix'] = {};
  const seen = new Map<string, Set<string>>();
  for (const [key, v] of pairs) {
    let known = seen.get(key);
    if (!known) seen.set(key, (known = new Set()));
    if (known.has(String(v))) continue;
    known.add(String(v));
    (out[key] ??= []).push(v);
  }
  return out;
}
