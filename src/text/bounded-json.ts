// JSON from outside (a server's answer, a job's report, a journal, a pipeline's fromJSON) read as a
// value, and refused past a depth nothing of enginectl's comes near: an answer of the API nests a
// few levels, a report or a journal record holds one a few levels down. JSON.parse reads any
// depth, but every walk of the value after it (masking, the journal, the reports, expressions)
// recurses: 100,000 nested arrays in 200 KB would overflow the stack mid-run.

/** The deepest a value from outside may nest (objects and arrays inside each other). */
export const MAX_JSON_DEPTH = 100;
/**
 * The deepest a report or a journal record read back may nest. What enginectl writes stays near
 * 210 levels (a fromJSON value inside a pipeline's value, held a few levels down); a walk of a
 * value overflows the stack near 4,000. Past this, a file is not one enginectl wrote.
 */
export const MAX_HELD_DEPTH = 1_000;

/** The value nests deeper than allowed; its message completes "the answer …", "fromJSON(): the value …". */
export class TooDeep extends Error {
  constructor(readonly max: number) {
    super(`nests more than ${max} levels deep`);
  }
}

/** The value of a JSON text; throws SyntaxError when it is not JSON, TooDeep when it nests deeper than `max`. */
export function parseBoundedJson(text: string, max = MAX_JSON_DEPTH): unknown {
  const value: unknown = JSON.parse(text);
  if (nestsDeeper(value, max)) throw new TooDeep(max);
  return value;
}

/** Whether `value` nests deeper than `max`, found without recursion (a stack of what is left to see). */
export function nestsDeeper(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const left: [object, number][] = [[value, 1]];
  for (let next = left.pop(); next; next = left.pop()) {
    const [node, depth] = next;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') left.push([child as object, depth + 1]);
    }
  }
  return false;
}

/** The path to an object or array nested deeper than `max` (for a message that says where), found without recursion. */
export function pathPast(value: unknown, max: number): (string | number)[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const left: [object, (string | number)[]][] = [[value, []]];
  for (let next = left.pop(); next; next = left.pop()) {
    const [node, path] = next;
    if (path.length >= max) return path;
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((child, i) => [i, child]) : Object.entries(node);
    for (const [key, child] of entries) if (child !== null && typeof child === 'object') left.push([child as object, [...path, key]]);
  }
  return undefined;
}
