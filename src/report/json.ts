// The JSON report: the model as it is, two-space indented, with a trailing newline. Produced as
// pieces (a token, or a small value's whole JSON: a step of the report) so that a report holding a
// 50 MB update report is written without first building one string of twice that size.
import { joinPieces } from '../text/slices.ts';
import type { Report } from './model.ts';

/** Strings longer than this are escaped slice by slice, never copied whole. */
export const SLICE = 1 << 20;

/** JSON.stringify(text), in pieces of at most about SLICE characters. */
function* stringPieces(text: string): Generator<string> {
  yield '"';
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + SLICE);
    // never split a surrogate pair: each half alone would be escaped as \udxxx
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    yield JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
  yield '"';
}

/** An object or array whose JSON comes to about fewer characters is one piece, made by JSON.stringify. */
const AT_ONCE = 1 << 16;

/**
 * What is left of `room` (about, in characters) once `v`'s JSON is made, or less than 0: its
 * strings and keys counted, a few characters for each other value. A toJSON leaves nothing: it is
 * called here with no key, JSON.stringify gives it one.
 */
function roomAfter(v: unknown, room: number): number {
  if (typeof v === 'string') return room - v.length - 2;
  if (v === null || typeof v !== 'object') return room - 8;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return -1;
  room -= 4;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && room >= 0; i++) room = roomAfter(v[i], room - 4);
    return room;
  }
  for (const key of Object.keys(v)) {
    if (room < 0) break;
    room = roomAfter((v as Record<string, unknown>)[key], room - key.length - 8);
  }
  return room;
}

/** The pieces of JSON.stringify(value, null, 2): joined, they are exactly that text. */
export function* jsonPieces(value: unknown, indent = ''): Generator<string> {
  const v =
    value && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON(): unknown }).toJSON()
      : value;
  if (typeof v === 'string' && v.length > SLICE) return yield* stringPieces(v);
  if (v === null || typeof v !== 'object') {
    yield typeof v === 'number' && !Number.isFinite(v) ? 'null' : (JSON.stringify(v) ?? 'null');
    return;
  }
  // A small value (a step of a report) in one piece: a piece per token made 10,000 sites' JSON in
  // ten times JSON.stringify's time. Its lines are indented as deep as it is (no string of JSON
  // holds a line break), exactly as JSON.stringify(value, null, 2) has them.
  if (roomAfter(v, AT_ONCE) >= 0) {
    const text = JSON.stringify(v, null, 2);
    yield indent ? text.split('\n').join(`\n${indent}`) : text;
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return yield '[]';
    yield '[\n';
    for (let i = 0; i < v.length; i++) {
      yield inner;
      const item: unknown = v[i];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* jsonPieces(item, inner);
      yield i < v.length - 1 ? ',\n' : '\n';
    }
    return yield `${indent}]`;
  }
  const entries = Object.entries(v).filter(
    ([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol',
  );
  if (entries.length === 0) return yield '{}';
  yield '{\n';
  for (let i = 0; i < entries.length; i++) {
    const [k, x] = entries[i]!;
    yield `${inner}${JSON.stringify(k)}: `;
    yield* jsonPieces(x, inner);
    yield i < entries.length - 1 ? ',\n' : '\n';
  }
  yield `${indent}}`;
}

export function* reportJsonPieces(report: Report): Generator<string> {
  yield* jsonPieces(report);
  yield '\n';
}

/** The JSON report as one string (a webhook's body), its pieces joined a slice at a time (text/slices.ts). */
export function renderJson(report: Report): string {
  return joinPieces(reportJsonPieces(report));
}
