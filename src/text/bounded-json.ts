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

/**
 * Where JSON.parse stopped, when it says: " (at character N)", or nothing. Never its message, which
 * quotes the text (a secret's first characters, or those around a typo in a JSON secret).
 */
export function jsonErrorAt(error: unknown): string {
  const at = /\bposition (\d+)/.exec(error instanceof SyntaxError ? error.message : '');
  return at ? ` (at character ${Number(at[1]) + 1})` : '';
}

/** The value of a JSON text; throws SyntaxError when it is not JSON, TooDeep when it nests deeper than `max`. */
export function parseBoundedJson(text: string, max = MAX_JSON_DEPTH): unknown {
  const value: unknown = JSON.parse(text);
  if (nestsDeeper(value, max)) throw new TooDeep(max);
  return value;
}

/**
 * Whether `value` nests deeper than `max`: a walk that allocates nothing (it runs on every answer
 * of a fleet), recursing at most `max` + 1 calls deep (the callers' bounds, 100 and 1,000, are far
 * from the stack's limit); pathPast says where, once a value is refused.
 */
export function nestsDeeper(value: unknown, max: number): boolean {
  return value !== null && typeof value === 'object' && past(value, 1, max);
}

function past(node: object, depth: number, max: number): boolean {
  if (depth > max) return true;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (child !== null && typeof child === 'object' && past(child, depth + 1, max)) return true;
    }
    return false;
  }
  for (const key in node) {
    const child = (node as Record<string, unknown>)[key];
    if (Object.hasOwn(node, key) && child !== null && typeof child === 'object' && past(child, depth + 1, max))
      return true;
  }
  return false;
}

/** An object or array still to see: its depth, and the key and node that hold it (its path, once needed). */
interface Seen {
  node: object;
  depth: number;
  key: string | number;
  up: Seen | undefined;
}

/**
 * The path to an object or array nested deeper than `max` (a message says where), found without
 * recursion: a stack of what is left to see, each knowing what holds it, so a path is built only
 * for the one found.
 */
export function pathPast(value: unknown, max: number): (string | number)[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const left: Seen[] = [{ node: value, depth: 1, key: '', up: undefined }];
  for (let seen = left.pop(); seen; seen = left.pop()) {
    if (seen.depth > max) {
      const path: (string | number)[] = [];
      for (let at: Seen | undefined = seen; at?.up; at = at.up) path.unshift(at.key);
      return path;
    }
    const { node } = seen;
    if (Array.isArray(node)) {
      node.forEach((child: unknown, i) => {
        if (child !== null && typeof child === 'object')
          left.push({ node: child, depth: seen.depth + 1, key: i, up: seen });
      });
    } else {
      for (const key in node) {
        const child = (node as Record<string, unknown>)[key];
        if (Object.hasOwn(node, key) && child !== null && typeof child === 'object')
          left.push({ node: child, depth: seen.depth + 1, key, up: seen });
      }
    }
  }
  return undefined;
}
