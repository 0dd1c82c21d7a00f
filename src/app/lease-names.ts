// The leases a run takes: the fleet's one, or one per value of the lease's `over` the run selects.
import { UsageError } from '../errors.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { describeSelection, matrixValues, selects, type MatrixValue, type Selection } from '../pipeline/selection.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

/** The values of `over` the run selects (--only, --skip), of `all` its values (undefined: no step has the key), and the selection; undefined without `over`. */
export interface OverValues {
  selected: MatrixValue[];
  all: MatrixValue[] | undefined;
  selection: Selection;
}

/** The values of the matrix key `over` the run selects (--only, --skip); undefined without `over`. */
export function selectedValues(
  pipeline: Pipeline,
  selection: Selection,
  over: string | undefined,
): OverValues | undefined {
  if (!over) return undefined;
  const all = matrixValues(pipeline)[over];
  return { selected: (all ?? []).filter((v) => selects({ [over]: v }, selection)), all, selection };
}

/** The leases a run takes: the fleet's one, or one per value of `over` the run selects (NAME.VALUE), in order. */
export function leaseNames(
  lease: { name: string; over?: string | undefined },
  values: OverValues | undefined,
  ways: WaysOn = CLI_WAYS,
): string[] {
  if (!lease.over) return [lease.name];
  // Invalid input, never LEASE_HELD (another run holds it: a script would wait for ever).
  if (!values || values.selected.length === 0) throw noValue(lease.name, lease.over, values, ways);
  return [...new Set(values.selected.map((v) => `${lease.name}.${String(v).replace(/[^A-Za-z0-9._-]/g, '-')}`))].sort();
}

/** Why `over` takes no value in this run, the one cause that applies: no step has the key (validate refuses it first), or the selection leaves none of its values. */
function noValue(name: string, over: string, values: OverValues | undefined, ways: WaysOn): UsageError {
  const drop = 'or drop over: for one lease of the whole fleet';
  if (values?.all === undefined)
    return new UsageError(
      ways.badValue,
      `lease ${name}: over: ${over} takes no value in this run: no step of the pipeline has a matrix over ${over}`,
      { hint: `name a matrix key of the pipeline's steps in over:, ${drop}` },
    );
  const selected = describeSelection(values.selection);
  return new UsageError(
    ways.badValue,
    `lease ${name}: over: ${over} takes no value in this run: the run selects none of the values of ${over} (${values.all.join(', ')})${selected ? `: ${selected}` : ''}`,
    { hint: `give ${ways.selection} that leaves a value of ${over} to this run, ${drop}` },
  );
}
