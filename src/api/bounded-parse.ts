// An answer checked against its schema at a cost bounded whatever the answer: a big value is
// checked piece by piece (each element of a list, each field of an object), so a mismatch stops at
// the first few issues instead of building an issue, a path and a message for every element (an
// alerts list of 10 MiB of `{}` is 3.5 million elements, three issues each: V8 ran out of heap).
// A value that passes piece by piece is then parsed whole, for the checks of the whole.
import type { z } from 'zod';

/** Issues named at most: the first of them say what is wrong. */
export const MAX_ISSUES = 3;
/** Values of at most this many nodes are checked in one piece: their issues are few enough. */
const PIECE_NODES = 10_000;

export interface AnswerIssue {
  path: PropertyKey[];
  message: string;
}

export type BoundedResult<T> =
  | { success: true; data: T }
  | { success: false; issues: AnswerIssue[]; more: 'counted' | 'not counted'; total: number };

export function boundedParse<S extends z.ZodType>(schema: S, value: unknown): BoundedResult<z.infer<S>> {
  // A value small enough to have few issues (every answer but a big list) is parsed once, whole.
  if (!bigger(value, PIECE_NODES)) {
    const parsed = schema.safeParse(value);
    if (parsed.success) return { success: true, data: parsed.data };
    const all = parsed.error.issues.map(toIssue([]));
    return { success: false, issues: all.slice(0, MAX_ISSUES), more: 'counted', total: all.length };
  }
  const found: AnswerIssue[] = [];
  const counted = firstIssues(schema, value, [], found);
  if (found.length === 0) {
    // Every piece passed: only a check of the whole (a list's length) can fail now, with few issues.
    const parsed = schema.safeParse(value);
    if (parsed.success) return { success: true, data: parsed.data };
    found.push(...parsed.error.issues.map(toIssue([])));
    return { success: false, issues: found.slice(0, MAX_ISSUES), more: 'counted', total: found.length };
  }
  return {
    success: false,
    issues: found.slice(0, MAX_ISSUES),
    more: counted ? 'counted' : 'not counted',
    total: found.length,
  };
}

const toIssue =
  (at: readonly PropertyKey[]) =>
  (i: z.core.$ZodIssue): AnswerIssue => ({ path: [...at, ...i.path], message: i.message });

/**
 * Adds the issues of `value` to `found`, stopping once MAX_ISSUES are found; false when it stopped
 * before checking all of it (there may be more than it found).
 */
function firstIssues(schema: z.ZodType, value: unknown, at: PropertyKey[], found: AnswerIssue[]): boolean {
  const def = schema._zod.def as unknown as Def;
  if (def.type === 'lazy' && def.getter) return firstIssues(def.getter(), value, at, found);
  if ((def.type === 'optional' || def.type === 'default') && value === undefined) return true;
  if (def.type === 'nullable' && value === null) return true;
  const inner =
    def.type === 'optional' || def.type === 'nullable' || def.type === 'default' ? def.innerType : undefined;
  if (inner) return firstIssues(inner, value, at, found);
  if (!bigger(value, PIECE_NODES)) return checkPiece(schema, value, at, found);
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const whole = firstIssues(def.element, value[i], [...at, i], found);
      if (found.length >= MAX_ISSUES) return whole && i === value.length - 1;
    }
    return true;
  }
  if (def.type === 'object' && def.shape && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const fields = Object.entries(def.shape);
    for (const [i, [key, field]] of fields.entries()) {
      const whole = firstIssues(field, (value as Record<string, unknown>)[key], [...at, key], found);
      if (found.length >= MAX_ISSUES) return whole && i === fields.length - 1;
    }
    return true;
  }
  if (def.type === 'record' && def.valueType && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    for (const [i, [key, v]] of entries.entries()) {
      const whole = firstIssues(def.valueType, v, [...at, key], found);
      if (found.length >= MAX_ISSUES) return whole && i === entries.length - 1;
    }
    return true;
  }
  if (def.type === 'union' && def.options) {
    // One issue, as zod says it: the value is none of the forms (each form's check bounded).
    const fits = def.options.some((option) => {
      const own: AnswerIssue[] = [];
      firstIssues(option, value, at, own);
      return own.length === 0;
    });
    if (!fits) found.push({ path: at, message: 'Invalid input' });
    return true;
  }
  // A schema that is not taken apart: checked whole.
  return checkPiece(schema, value, at, found);
}

function checkPiece(schema: z.ZodType, value: unknown, at: PropertyKey[], found: AnswerIssue[]): boolean {
  const parsed = schema.safeParse(value);
  if (!parsed.success) found.push(...parsed.error.issues.map(toIssue(at)));
  return true;
}

interface Def {
  type: string;
  getter?: () => z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  options?: z.ZodType[];
}

/** Whether the value has more than `limit` nodes, looking at no more than `limit` of them. */
function bigger(value: unknown, limit: number): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    count++;
    const children = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.values(v) : [];
    if (count + stack.length + children.length > limit) return true;
    for (const child of children) stack.push(child);
  }
  return false;
}
