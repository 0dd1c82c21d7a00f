// GitHub Actions' value rules, which the contract follows where it is silent: falsy values, loose
// equality (other types compare as numbers; strings case-insensitively), string forms.
import { Placeholder } from './placeholder.ts';

export type Value = unknown;

export function truthy(v: Value): boolean {
  return !(
    v === false ||
    v === null ||
    v === undefined ||
    v === '' ||
    (typeof v === 'number' && (v === 0 || Number.isNaN(v)))
  );
}

export function toNumber(v: Value): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v.trim());
  return NaN;
}

export function looseEquals(a: Value, b: Value): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') return a === b;
  if (typeof a === typeof b && a !== null && b !== null) return a === b;
  if (a === null && b === null) return true;
  if (typeof a === 'object' && a !== null) return false;
  if (typeof b === 'object' && b !== null) return false;
  const x = toNumber(a);
  const y = toNumber(b);
  return !Number.isNaN(x) && !Number.isNaN(y) && x === y;
}

export function compare(a: Value, b: Value): number | undefined {
  if (typeof a === 'string' && typeof b === 'string') {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = toNumber(a);
  const y = toNumber(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
  return x - y;
}

/** A value as it goes into a string: null is empty; arrays and objects are JSON. */
export function toText(v: Value): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Placeholder) return v.toString();
  return JSON.stringify(v);
}
