// An end record's outputs that are also a field of its result (an update's report, tens of MiB),
// written once, in the result (the observer), and put back in the outputs when read (read.ts).
import type { StepRun } from '../runner/result.ts';
import type { JournalRecord } from './records.ts';

type EndRecord = Extract<JournalRecord, { t: 'end' }>;

/** An output this long that is also a field of the result is written once, in the result. */
const SHARED_TEXT = 256;

/**
 * A StepRun as the journal keeps it (its fields left undefined are left out when it is written),
 * and the outputs that are a field of its result, written once: an update's report is both the
 * step's `report` output and the answer's `report`, and may be tens of MiB.
 */
export function stepRecord(run: StepRun): Pick<EndRecord, 'run' | 'fromResult'> {
  const result = run.result;
  if (!run.outputs || !result || typeof result !== 'object') return { run };
  const fields = Object.entries(result as Record<string, unknown>).filter(
    ([, v]) => typeof v === 'string' && v.length >= SHARED_TEXT,
  );
  const fromResult: Record<string, string> = {};
  const outputs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(run.outputs)) {
    const field =
      typeof value === 'string' && value.length >= SHARED_TEXT ? fields.find(([, v]) => v === value)?.[0] : undefined;
    if (field === undefined) outputs[name] = value;
    else fromResult[name] = field;
  }
  if (Object.keys(fromResult).length === 0) return { run };
  return { run: { ...run, outputs }, fromResult };
}

/** An end record with the outputs it wrote once, in the result, back in its outputs. */
export function withSharedOutputs(r: EndRecord): EndRecord {
  if (!r.fromResult) return r;
  const result = (r.run.result ?? {}) as Record<string, unknown>;
  const outputs = { ...r.run.outputs };
  for (const [name, field] of Object.entries(r.fromResult)) outputs[name] = result[field];
  return { ...r, run: { ...r.run, outputs } };
}
