// A value's type in words, as a refusal tells what was expected and what was given.

/** A value as a refusal names it: `the string "abc"`, `a list`, `nothing`. */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `the ${typeof v} ${JSON.stringify(v)}`;
}

/** A value of another type than the one expected, in words: `expected a whole number, got the number 1.5`. */
export function typeMismatch(expected: string, got: unknown): string {
  const wanted =
    expected === 'object' || expected === 'record'
      ? 'a mapping'
      : expected === 'array'
        ? 'a list'
        : expected === 'int'
          ? 'a whole number'
          : `a ${expected}`;
  return `expected ${wanted}, got ${typeName(got)}`;
}
