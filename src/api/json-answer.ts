// An answer's JSON as a value, refused past a depth no answer of the API comes near (its deepest
// nest a few levels). JSON.parse reads any depth, but every walk of the value after it (masking,
// the journal, the reports, expressions) recurses: a hostile or broken server's 100,000 nested
// arrays in 200 KB would overflow the stack mid-step. Refused here, the step fails as an invalid
// response and the run goes on.

/** The deepest an answer may nest (objects and arrays inside each other). */
export const MAX_ANSWER_DEPTH = 100;

/** The answer nests deeper than MAX_ANSWER_DEPTH: what an invalid response says. */
export class TooDeep extends Error {
  constructor() {
    super(`the answer nests more than ${MAX_ANSWER_DEPTH} levels deep`);
  }
}

/** The value of a JSON text; throws SyntaxError when it is not JSON, TooDeep when it nests too deep. */
export function parseAnswer(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (nestsDeeper(value, MAX_ANSWER_DEPTH)) throw new TooDeep();
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
