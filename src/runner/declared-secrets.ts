// The secret fields a step type declares (its secretInputs and secretOutputs, dotted paths like
// `target.token`): taught to the masker when its inputs resolve, replaced whole in what it shows.
import type { StepType } from '../steps/types.ts';
import { MASK, type Masker } from './masker.ts';

/** The object holding a declared secret field (a dotted path: `target.token`), and its key. */
function fieldAt(value: unknown, path: string): { holder: Record<string, unknown>; key: string } | undefined {
  const keys = path.split('.');
  let holder: unknown = value;
  for (const key of keys.slice(0, -1))
    holder =
      holder && typeof holder === 'object' && Object.hasOwn(holder, key)
        ? (holder as Record<string, unknown>)[key]
        : undefined;
  const key = keys.at(-1)!;
  return holder && typeof holder === 'object' && typeof (holder as Record<string, unknown>)[key] === 'string'
    ? { holder: holder as Record<string, unknown>, key }
    : undefined;
}

/** The secrets a step type declares among its resolved inputs (`target.token`, `code`). */
export function registerInputSecrets(type: StepType, inputs: Record<string, unknown>, masker: Masker): void {
  for (const path of type.secretInputs ?? []) {
    const field = fieldAt(inputs, path);
    if (field) masker.add(field.holder[field.key] as string, `input ${path}`);
  }
}

/**
 * The declared secret fields of (masked) inputs or outputs replaced whole, whatever their length.
 * Nothing is written in place: the masker shares what it did not change with the values the step
 * runs with and later steps read, so the objects along a replaced field's path are copied.
 */
export function maskDeclared(
  value: Record<string, unknown>,
  paths: readonly string[] | undefined,
): Record<string, unknown> {
  let out = value;
  for (const path of paths ?? []) out = withMasked(out, path.split('.'));
  return out;
}

/** `value` with the string at `keys` replaced by MASK (the objects on the way copied), or `value` itself. */
function withMasked(value: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const [key, ...rest] = keys as [string, ...string[]];
  if (!Object.hasOwn(value, key)) return value;
  const field = value[key];
  let masked: unknown;
  if (rest.length === 0) masked = typeof field === 'string' && field !== MASK ? MASK : field;
  else masked = field && typeof field === 'object' ? withMasked(field as Record<string, unknown>, rest) : field;
  // A computed key makes an own property, `__proto__` included.
  return masked === field ? value : { ...value, [key]: masked };
}
