// Reading action inputs as the runner passes them (strings): booleans as @actions/core reads them,
// list inputs as newlines, commas or a YAML flow list, vars as lines of K=V.
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../errors.ts';
import { listValues } from '../steps/inputs.ts';
import { windowOverride } from '../app/window-override.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { WindowOverride } from '../runner/run-context.ts';
import type { Env } from '../runner/scope.ts';

export type GetInput = (name: string) => string;

const TRUE = ['true', 'True', 'TRUE'];
const FALSE = ['false', 'False', 'FALSE'];

/**
 * An input given empty (`dry-run: ${{ inputs.x }}` that evaluated to '', or no value): GitHub fills
 * an input's default only when its key is left out of with:, so '' is never the default, and a
 * boolean one is refused rather than read as one (an empty dry-run once ran for real).
 */
export function emptyInput(name: string, values: string): UsageError {
  return new UsageError('BAD_INPUT', `input ${name} is empty (an expression that evaluated to '', or no value)`, {
    hint: `write ${name}: ${values}, or leave ${name} out of with: for its default (GitHub gives the default only to an input left out)`,
  });
}

/** A boolean input: true or false (as @actions/core's getBooleanInput reads them); empty is refused (emptyInput). */
export function booleanInput(get: GetInput, name: string): boolean {
  const raw = get(name).trim();
  if (raw === '') throw emptyInput(name, 'true or false');
  if (TRUE.includes(raw)) return true;
  if (FALSE.includes(raw)) return false;
  throw new UsageError('BAD_INPUT', `input ${name}: "${raw}" is not a boolean`, {
    hint: `write ${name}: true or ${name}: false`,
  });
}

/** Every boolean input of an action, read before anything runs: a wrong one is refused then, never found after the writes. */
export function checkBooleanInputs(
  inputs: Readonly<Record<string, { default?: string | undefined }>>,
  get: GetInput,
): void {
  for (const [name, input] of Object.entries(inputs))
    if (name !== 'dry-run' && (input.default === 'true' || input.default === 'false')) booleanInput(get, name);
}

/** A list input: one value per line, values separated by commas or semicolons (as a pipeline's lists), or a YAML flow list `[1001, 1002]`. */
export function listInput(get: GetInput, name: string): string[] | number[] | undefined {
  const raw = get(name).trim();
  if (raw === '') return undefined;
  if (raw.startsWith('[')) {
    let value: unknown;
    try {
      value = parseYaml(raw);
    } catch (error) {
      throw new UsageError(
        'BAD_INPUT',
        `input ${name}: not a YAML flow list (${(error as Error).message.split('\n')[0]})`,
        { hint: `write ${name}: "[1001, 1002]", or one value per line` },
      );
    }
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' && typeof v !== 'number')) {
      throw new UsageError('BAD_INPUT', `input ${name}: the list must hold numbers or strings`, {
        hint: `write ${name}: "[1001, 1002]"`,
      });
    }
    return value as string[] | number[];
  }
  return listValues(raw);
}

/** `vars`: lines of NAME=VALUE; blank lines and lines starting with # are ignored. */
export function varsLines(get: GetInput, name = 'vars'): string[] {
  return get(name)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Inputs override-freeze and override-reason, checked against the pipeline's override-freeze: as run --override-freeze is. */
export function overrideInputs(get: GetInput, pipeline: Pipeline, env: Env): WindowOverride | undefined {
  return windowOverride(
    pipeline,
    { 'override-freeze': booleanInput(get, 'override-freeze'), reason: get('override-reason') },
    env,
    { flag: 'input override-freeze', reason: 'input override-reason', reasonAlone: true },
  );
}
