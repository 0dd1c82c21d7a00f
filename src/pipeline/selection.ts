// Matrix expansion: one instance per combination, in key order; a selection (--only, --skip)
// keeps some of them, and each of its values must name an instance of some matrix step.
import { UsageError } from '../errors.ts';
import { didYouMean } from './diagnostics.ts';
import type { Pipeline } from './model.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';
import { shellWord } from '../text/shell-word.ts';

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

/**
 * Which instances a run is limited to. `only`: an instance runs when, for each key, its value is
 * one of those given (--only site=a --only site=b: either site). `skip`: an instance with one of
 * these values does not run. A key an instance does not have never filters it.
 */
export interface Selection {
  only: Readonly<Record<string, readonly string[]>>;
  skip: Readonly<Record<string, readonly string[]>>;
}

export const EVERY_INSTANCE: Selection = { only: {}, skip: {} };

/** Each selection's values as a set, made once: a static shard's worker selects thousands of sites of a fleet of thousands. */
const valueSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function valueSet(values: readonly string[]): ReadonlySet<string> {
  let set = valueSets.get(values);
  if (!set) valueSets.set(values, (set = new Set(values)));
  return set;
}

export function selects(combination: Combination, selection: Selection): boolean {
  const has = (k: string, values: readonly string[]) => valueSet(values).has(String(combination[k]));
  return (
    Object.entries(selection.only).every(([k, v]) => !(k in combination) || has(k, v)) &&
    Object.entries(selection.skip).every(([k, v]) => !(k in combination) || !has(k, v))
  );
}

/** A selection with its keys and values in order: two spellings of one selection compare equal. */
export function canonicalSelection(s: Selection): { only: Record<string, string[]>; skip: Record<string, string[]> } {
  const sorted = (r: Readonly<Record<string, readonly string[]>>) =>
    Object.fromEntries(
      Object.keys(r)
        .sort()
        .map((k) => [k, [...r[k]!].sort()]),
    );
  return { only: sorted(s.only), skip: sorted(s.skip) };
}

/** A selection as the words that give it again: ` --only K=V --skip K=V`, each KEY=VALUE one shell word. */
export const selectionWords = (selection: Selection): string =>
  (['only', 'skip'] as const)
    .flatMap((flag) =>
      Object.entries(selection[flag]).flatMap(([k, vs]) => vs.map((v) => ` --${flag} ${shellWord(`${k}=${v}`)}`)),
    )
    .join('');

/**
 * `selection` narrowed to one combination: each of its keys --only its value (a --skip of that key
 * dropped), the other keys as `selection` has them. Of that combination's step, exactly it.
 */
export function narrowed(selection: Selection, combination: Combination): Selection {
  const keys = Object.keys(combination);
  return {
    only: { ...selection.only, ...Object.fromEntries(keys.map((k) => [k, [String(combination[k])]])) },
    skip: Object.fromEntries(Object.entries(selection.skip).filter(([k]) => !keys.includes(k))),
  };
}

/** The selection in words, or undefined for every instance: "site=a or site=b; without site=c". */
export function describeSelection(selection: Selection): string | undefined {
  const only = Object.entries(selection.only).map(([k, vs]) => vs.map((v) => `${k}=${v}`).join(' or '));
  const skip = Object.entries(selection.skip).flatMap(([k, vs]) => vs.map((v) => `without ${k}=${v}`));
  const parts = [...only, ...skip];
  return parts.length ? parts.join('; ') : undefined;
}

export function describeCombination(c: Combination): string {
  const parts = Object.entries(c).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** Whether a rollout (`rollout.over`) splits this step: its matrix has the rollout's key. */
export function inRollout(
  rollout: { over: string } | undefined,
  step: { matrix?: Readonly<Record<string, unknown>> | undefined },
): boolean {
  return rollout !== undefined && step.matrix !== undefined && Object.hasOwn(step.matrix, rollout.over);
}

/** Every value of each matrix key over the pipeline's steps, in order of appearance: the instances a fleet has. */
export function matrixValues(pipeline: Pick<Pipeline, 'steps'>): Record<string, MatrixValue[]> {
  const values: Record<string, MatrixValue[]> = {};
  // Values compared as text (1 and "1" are one instance), each key's seen once: a fleet of
  // thousands of sites is not compared pair by pair.
  const seen = new Map<string, Set<string>>();
  for (const step of pipeline.steps) {
    for (const [key, list] of Object.entries(step.matrix ?? {})) {
      const out = (values[key] ??= []);
      let texts = seen.get(key);
      if (!texts) seen.set(key, (texts = new Set()));
      for (const v of list) {
        if (texts.has(String(v))) continue;
        texts.add(String(v));
        out.push(v);
      }
    }
  }
  return values;
}

/**
 * Refuses a --only or --skip KEY=VALUE that names nothing: a key no matrix step has, or a value no
 * instance has; and a selection whose values each exist but that together leave no instance of the
 * steps with its keys (every site skipped, --only site=a --skip site=a). Either would otherwise
 * deploy nothing and exit 0. `ways`: where the surface takes them (the CLI's flags, the action's inputs).
 */
export function checkSelection(pipeline: Pipeline, selection: Selection, ways: WaysOn = CLI_WAYS): void {
  const values = new Map(Object.entries(matrixValues(pipeline)).map(([k, list]) => [k, new Set(list.map(String))]));
  for (const [flag, given] of [
    [ways.given('only'), selection.only],
    [ways.given('skip'), selection.skip],
  ] as const) {
    for (const [key, list] of Object.entries(given)) {
      const known = values.get(key);
      if (!known) {
        const guess = didYouMean(key, [...values.keys()]);
        throw new UsageError('BAD_ONLY', `${flag} ${key}=${list[0]}: no matrix step has the key "${key}"`, {
          hint: guess
            ? `did you mean ${flag} ${guess}=…?`
            : values.size
              ? `matrix keys: ${[...values.keys()].join(', ')}`
              : `the pipeline has no matrix step: drop ${flag}`,
        });
      }
      for (const value of list) {
        if (known.has(value)) continue;
        const guess = didYouMean(value, [...known]);
        throw new UsageError('BAD_ONLY', `${flag} ${key}=${value}: no instance has ${key}=${value}`, {
          hint: `${guess ? `did you mean ${key}=${guess}? ` : ''}values of ${key}: ${[...known].join(', ')}`,
        });
      }
    }
  }
  checkSomethingLeft(pipeline, selection, values, ways);
}

/** Refuses a selection that leaves no instance of any matrix step with one of its keys. */
function checkSomethingLeft(
  pipeline: Pipeline,
  selection: Selection,
  values: Map<string, Set<string>>,
  ways: WaysOn,
): void {
  const keys = [...new Set([...Object.keys(selection.only), ...Object.keys(selection.skip)])];
  if (keys.length === 0) return;
  const steps = pipeline.steps.filter(
    (step) => step.matrix !== undefined && keys.some((k) => Object.hasOwn(step.matrix!, k)),
  );
  if (steps.some((step) => expandMatrix(step.matrix).some((c) => selects(c, selection)))) return;
  const left = (key: string) => [...(values.get(key) ?? [])].filter((v) => selects({ [key]: v }, selection));
  throw new UsageError(
    'BAD_ONLY',
    `the selection (${describeSelection(selection) ?? ''}) leaves no instance of any step with the key${keys.length > 1 ? 's' : ''} ${keys.join(', ')}: nothing would be deployed`,
    {
      hint: keys
        .map(
          (k) =>
            `values of ${k}: ${[...(values.get(k) ?? [])].join(', ')}; left after ${ways.given('only')} and ${ways.given('skip')}: ${left(k).join(', ') || 'none'}`,
        )
        .join('; '),
    },
  );
}
