// The semantic rule of a pipeline's lease over a matrix key (lease: { over: site }): the run takes
// a lease per value it selects, NAME.VALUE (app/lease-setup.ts names them), so `over` is a matrix
// key of the steps (one no step has would take no lease: refused at it, with the keys there are),
// and a lease's name is at most MAX_LEASE_NAME characters (store/lease.ts): a value that makes a
// longer one is refused here, at the value, rather than when the run takes its leases.
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { at } from './located.ts';
import type { PipelineFile } from './schema.ts';
import type { YamlSource } from './yaml-doc.ts';

/** The longest name of a lease (store/lease.ts checks it as it takes one). */
export const MAX_LEASE_NAME = 100;

/** The lease a value of `over` takes: as app/lease-names.ts leaseNames names it. */
export const leaseOfValue = (name: string, value: unknown) =>
  `${name}.${String(value).replace(/[^A-Za-z0-9._-]/g, '-')}`;

export function leaseProblems(source: YamlSource, doc: PipelineFile): Diagnostic[] {
  const lease = doc.lease;
  if (!lease?.over || !Array.isArray(doc.steps)) return [];
  const over = lease.over;
  const keys = [...new Set(doc.steps.flatMap((s) => Object.keys(s.matrix ?? {})))];
  if (!keys.includes(over)) {
    const guess = didYouMean(over, keys);
    return [
      at(
        source,
        ['lease', 'over'],
        `lease ${lease.name}: over: ${over} is no matrix key of the pipeline's steps: it would take no lease`,
        keys.length
          ? `${guess ? `did you mean "${guess}"? ` : ''}matrix keys: ${keys.join(', ')}; or drop over: for one lease of the whole fleet`
          : `no step has a matrix: give the steps of each ${over} matrix: { ${over}: [...] }, or drop over: for one lease of the whole fleet`,
      ),
    ];
  }
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  doc.steps.forEach((s, index) => {
    const values = s.matrix?.[over];
    if (!Array.isArray(values)) return;
    values.forEach((value, j) => {
      const name = leaseOfValue(lease.name, value);
      if (name.length <= MAX_LEASE_NAME || seen.has(name)) return;
      seen.add(name);
      out.push(
        at(
          source,
          ['steps', index, 'matrix', over, j],
          `lease ${name} is ${name.length} characters long, over the ${MAX_LEASE_NAME} a lease's name may have (lease: { name: ${lease.name}, over: ${over} } takes one per ${over})`,
          `shorten the ${over} value or the lease's name (${lease.name}) so that NAME.VALUE fits in ${MAX_LEASE_NAME} characters`,
        ),
      );
    });
  });
  return out;
}
