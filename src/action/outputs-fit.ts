// The outputs output within GitHub's limit for one output (1 MB): every step's outputs by step id
// (outputsOf), and when that is larger, the largest step runs' outputs left out (null), as few as
// fit it, each step and instance still listed; the JSON report holds them all.
import type { Report } from '../report/index.ts';
import { outputsOf } from './action-end.ts';

/** GitHub's limit on one output of a step: 1 MB. */
export const OUTPUT_LIMIT = 1_000_000;

/** A step run's outputs, where outputsOf put them: a step's value, or one instance of a matrix step. */
interface Leaf {
  size: number;
  drop: () => void;
}

/** The outputs output as set, and how many step runs' outputs were left out to fit `limit` bytes. */
export function fitOutputs(report: Report, limit = OUTPUT_LIMIT): { json: string; left: number | 'all' } {
  const all = outputsOf(report);
  const whole = JSON.stringify(all);
  if (Buffer.byteLength(whole) <= limit) return { json: whole, left: 0 };
  const leaves: Leaf[] = [];
  for (const [key, value] of Object.entries(all)) {
    const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? 'null');
    if (Array.isArray(value))
      for (const instance of value as { outputs: unknown }[])
        leaves.push({ size: size(instance.outputs), drop: () => (instance.outputs = null) });
    else leaves.push({ size: size(value), drop: () => (all[key] = null) });
  }
  leaves.sort((a, b) => b.size - a.size);
  let bytes = Buffer.byteLength(whole);
  let left = 0;
  for (const leaf of leaves) {
    if (bytes <= limit) break;
    leaf.drop();
    bytes -= leaf.size - 4;
    left++;
  }
  const json = JSON.stringify(all);
  // Listing every instance alone passes the limit (a fleet of tens of thousands): none is set.
  return Buffer.byteLength(json) <= limit ? { json, left } : { json: '{}', left: 'all' };
}
