// A key named twice in one object of an answer (`{"success": true, …, "success": false}`): JSON.parse
// keeps the last value, other readers the first (RFC 8259 calls the behaviour unpredictable), so
// such an answer says two things and is not one to decide on. Found by one pass over the text
// that parsed: strings are skipped by index search (an update report of tens of MiB is one
// string), and an object's keys are searched in a short list, in a set once it holds many.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
/** Keys an object's list holds before they go into a set. */
const SHORT = 16;

/** Where the string opened at `start` closes: the next `"` not escaped by an odd run of back slashes. */
function stringEnd(text: string, start: number): number {
  for (let at = start; ;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let before = at - 1;
    while (text.charCodeAt(before) === BACKSLASH) before--;
    if ((at - 1 - before) % 2 === 0) return at;
  }
}

/** The first key that an object of `text` (JSON that parsed) names twice, as JSON.parse reads it; undefined when none does. */
export function duplicateKey(text: string): string | undefined {
  // Per open object or array, by depth: whether it is an object, and the keys of an object so far.
  const object: boolean[] = [];
  const keys: (string[] | Set<string>)[] = [];
  let depth = 0;
  let atKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (atKey) {
        atKey = false;
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const seen = keys[depth - 1]!;
        if (Array.isArray(seen)) {
          if (seen.includes(name)) return name;
          seen.push(name);
          if (seen.length > SHORT) keys[depth - 1] = new Set(seen);
        } else {
          if (seen.has(name)) return name;
          seen.add(name);
        }
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      object[depth] = c === OPEN_OBJECT;
      if (c === OPEN_OBJECT) keys[depth] = [];
      depth++;
      atKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    } else if (c === COMMA) atKey = object[depth - 1] === true;
  }
  return undefined;
}

/**
 * What an answer that names a key twice says, for its invalid-response message; undefined when it
 * names none twice. `value` is what JSON.parse gave for `text`: when its objects hold as many keys
 * as the text writes at least, no key was named twice (each one named again is one fewer held),
 * and the text is not walked character by character (an answer of a fleet's every site is met here).
 */
export function twiceNamed(text: string, value: unknown): string | undefined {
  if (keysWritten(text) === keysHeld(value)) return undefined;
  const key = duplicateKey(text);
  if (key === undefined) return undefined;
  const shown = JSON.stringify(key.length > 100 ? `${key.slice(0, 100)}…` : key);
  return `the answer names ${shown} twice in one object: which of its values holds cannot be told`;
}

/**
 * At least how many keys `text` (JSON that parsed) writes: each `:` a `"` ends the white space
 * before. Every key is counted (its closing quote, white space, its colon); a string value that
 * holds an escaped quote and a colon (`"a\\": b"`) is counted too, which only makes the counts differ
 * and the walk decide.
 */
export function keysWritten(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at >= 0; at = text.indexOf(':', at + 1)) {
    let before = at - 1;
    for (
      let c = text.charCodeAt(before);
      c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
      c = text.charCodeAt(before)
    )
      before--;
    if (text.charCodeAt(before) === QUOTE) count++;
  }
  return count;
}

/** How many keys the objects of `value` (what JSON.parse gave: plain objects and arrays, nested no deeper than an answer may) hold. */
export function keysHeld(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) count += keysHeld(value[i]);
    return count;
  }
  for (const key in value) {
    count++;
    count += keysHeld((value as Record<string, unknown>)[key]);
  }
  return count;
}
