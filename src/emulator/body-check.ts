// The emulator's own checks of JSON request bodies: small checks, one per type word of the API
// contract's field tables (string, integer, number, boolean, array, a date), combined into the
// bodies of request-bodies.ts. Nothing here comes from the client's schemas, so a mistake in
// those is not repeated here and a run against the emulator can show it.
import type { ProblemDetail } from './http.ts';
import { isIsoDate } from './entity-model.ts';

/** The problems of one value at `at` (a field path such as `licenses[0].type`; '' for the body). */
export type Check = (value: unknown, at: string) => ProblemDetail[];

export interface Field {
  check: Check;
  required: boolean;
}

export type Fields = Readonly<Record<string, Field>>;

const name = (at: string) => at || '(body)';
const problem = (at: string, message: string): ProblemDetail[] => [
  { field: name(at), message: `${name(at)}: ${message}` },
];

/** What a JSON value is, in the words of the messages: null, array, string, number, boolean, object. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A value of another type than `expected`. */
export const wrong = (at: string, expected: string, value: unknown) =>
  problem(at, `Invalid input: expected ${expected}, received ${kindOf(value)}`);

/** A string; `filled`: not empty (a required string the contract's rule needs filled). */
export const string =
  (filled = false): Check =>
  (v, at) =>
    typeof v !== 'string'
      ? wrong(at, 'string', v)
      : filled && v === ''
        ? problem(at, 'Too small: expected string to have >=1 characters')
        : [];

export const number: Check = (v, at) => (typeof v === 'number' && Number.isFinite(v) ? [] : wrong(at, 'number', v));

/** An integer a JSON parser carries exactly (beyond 2^53 two integers read as one). */
export const integer: Check = (v, at) => {
  if (typeof v !== 'number' || !Number.isInteger(v)) return wrong(at, typeof v === 'number' ? 'int' : 'number', v);
  if (v > Number.MAX_SAFE_INTEGER) return problem(at, `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`);
  if (v < Number.MIN_SAFE_INTEGER) return problem(at, `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`);
  return [];
};

export const boolean: Check = (v, at) => (typeof v === 'boolean' ? [] : wrong(at, 'boolean', v));

/** A field whose type the contract does not show: any JSON value. */
export const anything: Check = () => [];

/** A calendar date written YYYY-MM-DD. */
export const date: Check = (v, at) =>
  typeof v !== 'string' ? wrong(at, 'string', v) : isIsoDate(v) ? [] : problem(at, 'Invalid ISO date');

/** An array whose items each pass `item`; `min` items at least. */
export const arrayOf =
  (item: Check, min = 0): Check =>
  (v, at) => {
    if (!Array.isArray(v)) return wrong(at, 'array', v);
    if (v.length < min) return problem(at, `Too small: expected array to have >=${min} items`);
    return v.flatMap((x, i) => item(x, `${at}[${i}]`));
  };

/** A string `test` takes; `message` when it does not. */
export const oneOf =
  (test: (s: string) => boolean, message: string): Check =>
  (v, at) =>
    typeof v !== 'string' ? wrong(at, 'string', v) : test(v) ? [] : problem(at, message);

export const required = (check: Check): Field => ({ check, required: true });
export const optional = (check: Check): Field => ({ check, required: false });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An object with these fields and no other (a misspelt option is refused, never ignored), then
 * the rules across its fields, each run only when the value is an object.
 */
export const object =
  (fields: Fields, ...rules: ((body: Record<string, unknown>, at: string) => ProblemDetail[])[]): Check =>
  (v, at) => {
    if (!isObject(v)) return wrong(at, 'object', v);
    const path = (key: string) => (at ? `${at}.${key}` : key);
    const problems: ProblemDetail[] = [];
    for (const [key, field] of Object.entries(fields)) {
      if (!Object.hasOwn(v, key)) {
        if (field.required) problems.push({ field: path(key), message: `${path(key)} is required` });
      } else problems.push(...field.check(v[key], path(key)));
    }
    for (const key of Object.keys(v))
      if (!Object.hasOwn(fields, key)) problems.push({ field: path(key), message: `unknown field ${key}` });
    for (const rule of rules) problems.push(...rule(v, at));
    return problems;
  };
