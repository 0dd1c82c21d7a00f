// A matrix key may take its values from a var (`matrix: { site: ${{ vars.sites }} }`): the list is
// written once, in the pipeline or in an inventory it includes, or given with --var. It is
// resolved at load, before the schema, so every later stage, `enginectl matrix`, the journal and
// the reports see a plain list, and no server or secret is needed to know the instances.
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { at } from './located.ts';
import type { YamlSource } from './yaml-doc.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

const WHOLE_VAR = /^\s*\$\{\{\s*vars\.([A-Za-z_][\w-]*)\s*\}\}\s*$/;

type Data = { steps?: unknown; vars?: unknown };

/** Why a matrix key named as every object's own (constructor, toString, __proto__) is refused. */
export const OBJECT_NAME_KEY =
  'a matrix key may not be a name every JavaScript object holds (constructor, toString, valueOf, …)';

/** `data` with each matrix key given as `${{ vars.NAME }}` replaced by the var's list, and the problems. */
export function resolveMatrixVars(
  source: YamlSource,
  data: Data,
  vars: Readonly<Record<string, unknown>> = {},
  ways: WaysOn = CLI_WAYS,
): { data: Data; problems: Diagnostic[] } {
  const problems: Diagnostic[] = [];
  if (!Array.isArray(data.steps)) return { data, problems };
  const fileVars = data.vars && typeof data.vars === 'object' ? (data.vars as Record<string, unknown>) : {};
  const steps = data.steps.map((step: unknown, index) => {
    const matrix = (step as { matrix?: unknown } | null)?.matrix;
    if (!matrix || typeof matrix !== 'object' || Array.isArray(matrix)) return step;
    let changed = false;
    const resolved: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(matrix)) {
      const where = ['steps', index, 'matrix', key];
      // A name every JavaScript object holds reads as the object's own (`__proto__` as no key at all): refused here, where it is still a key.
      if (Object.hasOwn(Object.prototype, key)) {
        problems.push(at(source, where, `matrix.${key}: ${OBJECT_NAME_KEY}`, 'name it otherwise, e.g. site', true));
        changed = true;
        continue;
      }
      resolved[key] = value;
      if (Array.isArray(value))
        problems.push(...listedTwice(value).map((j) => twice(source, [...where, j], key, value[j])));
      if (typeof value !== 'string') continue;
      changed = true;
      const name = WHOLE_VAR.exec(value)?.[1];
      // A value that cannot be resolved stays as a one-value list, so it is reported once, here.
      resolved[key] = [value];
      if (!name) {
        problems.push(
          at(
            source,
            where,
            `matrix.${key}: a matrix takes a list of values, or \${{ vars.NAME }} naming a var that is one`,
            `e.g. ${key}: [a, b], or ${key}: \${{ vars.${key}s }}`,
          ),
        );
        continue;
      }
      const known = Object.hasOwn(vars, name) ? vars[name] : Object.hasOwn(fileVars, name) ? fileVars[name] : undefined;
      if (known === undefined) {
        const guess = didYouMean(name, [...Object.keys(fileVars), ...Object.keys(vars)]);
        problems.push(
          at(
            source,
            where,
            `matrix.${key}: unknown var "${name}"`,
            guess
              ? `did you mean "${guess}"?`
              : `define it under vars: (here or in an included inventory) or ${ways.giveVar('NAME=[a, b]')}`,
          ),
        );
        continue;
      }
      const plain = (v: unknown) =>
        typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && !v.includes('${{'));
      if (!Array.isArray(known) || known.length === 0 || !known.every(plain)) {
        problems.push(
          at(
            source,
            where,
            `matrix.${key}: vars.${name} is not a list of plain values`,
            'a matrix var is a non-empty list of strings, numbers or booleans, known before the run (no ${{ }})',
          ),
        );
        continue;
      }
      resolved[key] = [...known];
      for (const j of listedTwice(known)) problems.push(twice(source, where, key, known[j], `vars.${name} lists`));
    }
    return changed ? { ...(step as object), matrix: resolved } : step;
  });
  return { data: { ...data, steps }, problems };
}

/** The places of the values of a matrix list each listed before it (as its instances name them: 1 and "1" alike). */
const listedTwice = (values: readonly unknown[]): number[] => {
  const seen = new Set<string>();
  const scalar = (v: unknown) => v === null || typeof v !== 'object';
  return values.flatMap((v, j) => (!scalar(v) ? [] : seen.has(String(v)) ? [j] : (seen.add(String(v)), [])));
};

/** A value listed twice: its instances would run twice (a write sent twice to one site). */
const twice = (source: YamlSource, where: (string | number)[], key: string, value: unknown, lists = '') =>
  at(
    source,
    where,
    `matrix.${key}: ${lists ? `${lists} ` : ''}${JSON.stringify(value)} ${lists ? 'twice' : 'is listed twice'}`,
    'list each value once: a value listed twice would run its instances twice',
  );

/** A step runs at most this many instances, and a pipeline this many in all. */
export const MAX_STEP_INSTANCES = 10_000;
export const MAX_INSTANCES = 100_000;

const count = (n: number) => (n < 1e15 ? n.toLocaleString('en') : 'more than 10^15');

/**
 * A matrix is a product: three keys of 1,000 values are a billion instances, which validate would
 * spend a minute expanding before it ran out of memory. Counted (not expanded) once the matrix
 * values are lists, and refused at the matrix's line past the limits, before any stage expands it.
 * `ways`: where the surface takes a selection, as the hint names it (the CLI's --only by default).
 */
export function matrixSizeProblems(source: YamlSource, data: Data, ways: WaysOn = CLI_WAYS): Diagnostic[] {
  if (!Array.isArray(data.steps)) return [];
  const problems: Diagnostic[] = [];
  let total = 0;
  data.steps.forEach((step: unknown, index) => {
    const matrix = (step as { matrix?: unknown } | null)?.matrix;
    if (!matrix || typeof matrix !== 'object' || Array.isArray(matrix)) return void (total += 1);
    const lengths = Object.values(matrix).map((values) => (Array.isArray(values) ? values.length : 1));
    const instances = lengths.reduce((product, n) => product * n, 1);
    total += instances;
    if (instances > MAX_STEP_INSTANCES) {
      problems.push(
        at(
          source,
          ['steps', index, 'matrix'],
          `the matrix makes ${count(instances)} instances (${lengths.map(count).join(' x ')}): a step runs at most ${count(MAX_STEP_INSTANCES)}`,
          `give its keys fewer values, or split it: a step, or a CI job with ${ways.given('only')}, per part of the fleet`,
        ),
      );
    }
  });
  if (problems.length === 0 && total > MAX_INSTANCES) {
    problems.push(
      at(
        source,
        ['steps'],
        `the steps make ${count(total)} instances in all: a pipeline runs at most ${count(MAX_INSTANCES)}`,
        `split it into several pipelines, or run a part of the fleet per CI job (${ways.given('only')})`,
        true,
      ),
    );
  }
  return problems;
}
