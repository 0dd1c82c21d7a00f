// The leases a run takes: the fleet's one, or one per value of the lease's `over` the run selects.
import { UsageError } from '../errors.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { matrixValues, selects, type MatrixValue, type Selection } from '../pipeline/selection.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

/** The values of the matrix key `over` the run selects (--only, --skip); undefined without `over`. */
export function selectedValues(
  pipeline: Pipeline,
  selection: Selection,
  over: string | undefined,
): MatrixValue[] | undefined {
  if (!over) return undefined;
  return (matrixValues(pipeline)[over] ?? []).filter((v) => selects({ [over]: v }, selection));
}

/** The leases a run takes: the fleet's one, or one per value of `over` the run selects (NAME.VALUE), in order. */
export function leaseNames(
  lease: { name: string; over?: string | undefined },
  values: readonly (string | number | boolean)[] | undefined,
  ways: WaysOn = CLI_WAYS,
): string[] {
  if (!lease.over) return [lease.name];
  // Invalid input, never LEASE_HELD (another run holds it: a script would wait for ever).
  if (!values || values.length === 0)
    throw new UsageError(
      ways.badValue,
      `lease ${lease.name}: over: ${lease.over} takes no value in this run: the key is no matrix key of the pipeline's steps, or the run selects none of its values`,
      {
        hint: "name a matrix key of the pipeline's steps (site), select some of its values, or drop over: for one lease of the whole fleet",
      },
    );
  return [...new Set(values.map((v) => `${lease.name}.${String(v).replace(/[^A-Za-z0-9._-]/g, '-')}`))].sort();
}
