// How a journal record sits on disk: one JSON object per line, its last member a CRC-32 of the
// rest (`{"t":"send",...,"crc":"1a2b3c4d"}`), so the lines stay JSON for jq and a torn or damaged
// line is told from a whole one. A torn tail (a line cut by a crash, or with no line break) is
// what a killed writer leaves: it is cut off before anything is appended. A damaged line before
// the tail is not a crash's trace: the journal is refused.
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const SUFFIX = /,"crc":"([0-9a-f]{8})"}$/;

/** A CRC-32 as a line writes it (of a payload's text or its UTF-8 bytes: the same value). */
function hex(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}

/** The end of a line: its CRC member, the closing brace and the line break. */
export function crcMember(crc: number): Buffer {
  return Buffer.from(`,"crc":"${hex(crc)}"}\n`);
}

/** A record as its line, line break included. */
export function encodeLine(record: object): string {
  return Buffer.concat(encodeLineBytes(record)).toString('utf8');
}

/** Strings this long (an update's report) are encoded a window at a time. */
const LONG = 1 << 20;

/**
 * A record as the bytes of its line, in pieces: the record without its closing brace, then the
 * CRC member and the line break. A string of `window` characters or more (a report of 50 MiB) is
 * encoded a window at a time, so the line is never one JSON text, nor one buffer, besides the
 * value it holds; the bytes are those of JSON.stringify, whatever the window.
 */
export function encodeLineBytes(record: object, window = LONG): Buffer[] {
  if (!holdsLong(record, window)) {
    const payload = Buffer.from(JSON.stringify(record));
    return [payload.subarray(0, payload.length - 1), crcMember(crc32(payload))];
  }
  const long: string[] = [];
  const mark = `\u0000${randomBytes(8).toString('hex')}:`;
  const text = JSON.stringify(record, (_key, value: unknown) =>
    typeof value === 'string' && value.length >= window ? `${mark}${long.push(value) - 1}\u0000` : value,
  );
  const pieces: Buffer[] = [];
  let crc = 0;
  const add = (bytes: Buffer) => {
    crc = crc32(bytes, crc);
    pieces.push(bytes);
  };
  // Each long string stands in the text as its mark, escaped by JSON.stringify: "\u0000<nonce>:<i>\u0000".
  const escapedMark = JSON.stringify(mark).slice(0, -1);
  let at = 0;
  for (let i = 0; i < long.length; i++) {
    const placeholder = `${escapedMark}${i}\\u0000"`;
    const found = text.indexOf(placeholder, at);
    add(Buffer.from(text.slice(at, found)));
    for (const bytes of windows(long[i]!, window)) add(bytes);
    at = found + placeholder.length;
  }
  const last = Buffer.from(text.slice(at));
  add(last);
  pieces[pieces.length - 1] = last.subarray(0, last.length - 1);
  pieces.push(crcMember(crc));
  return pieces;
}

/** A string as its JSON text (quotes included), a window of characters at a time; a surrogate pair is never split. */
function* windows(text: string, window: number): Generator<Buffer> {
  yield Buffer.from('"');
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + window, text.length);
    const [before, after] = [text.charCodeAt(end - 1), text.charCodeAt(end)];
    if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) end += end - 1 > at ? -1 : 1;
    yield Buffer.from(JSON.stringify(text.slice(at, end)).slice(1, -1));
    at = end;
  }
  yield Buffer.from('"');
}

/**
 * Whether a string of `window` characters or more is a field of `value` or of its objects, a few
 * levels down: where an update's report (`run.result.report`) or a body's text sits. Lists are not
 * searched (an Engines list is most of a record's values, and looking costs a third of encoding
 * it); a long string found nowhere here is encoded with the rest: the same bytes, more memory.
 */
function holdsLong(value: unknown, window: number, depth = 4): boolean {
  if (typeof value === 'string') return value.length >= window;
  if (depth === 0 || !value || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const key in value)
    if (Object.hasOwn(value, key) && holdsLong((value as Record<string, unknown>)[key], window, depth - 1)) return true;
  return false;
}

/** The record of one line, or undefined when the line is not whole (cut, altered, not framed). */
export function decodeLine(line: string): unknown {
  const m = SUFFIX.exec(line);
  if (!m) return undefined;
  const payload = `${line.slice(0, m.index)}}`;
  if (hex(crc32(payload)) !== m[1]) return undefined;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The number of the first line of `text` that is not a whole record's (cut, altered, without its
 * line break), or undefined when every one is. Its CRC alone is checked, not its JSON: a segment of
 * a journal in the run store is whole lines, and one that is not was changed on its way.
 */
export function firstBrokenLine(text: string): number | undefined {
  let n = 0;
  for (let offset = 0; offset < text.length;) {
    n++;
    const end = text.indexOf('\n', offset);
    if (end < 0) return n;
    const line = text.slice(offset, end);
    const m = SUFFIX.exec(line);
    if (!m || hex(crc32(`${line.slice(0, m.index)}}`)) !== m[1]) return n;
    offset = end + 1;
  }
  return undefined;
}

/** How every journal's first record starts (the run record, written before anything is sent). */
const RUN_RECORD_START = '{"t":"run",';

/** Whether a torn first line may be a run record cut short: the start of one, or one begun. */
const mayBeRunRecord = (line: string) => RUN_RECORD_START.startsWith(line) || line.startsWith(RUN_RECORD_START);

export interface Framed {
  /** Each whole line's record, with its line number (from 1). */
  lines: { line: number; value: unknown }[];
  /** The bytes of the journal that are whole: where an append goes. */
  wholeBytes: number;
  /** A torn last line, cut off: its line number. */
  torn: number | undefined;
  /** A damaged line before the last: its line number (the journal is not to be trusted). */
  damaged: number | undefined;
  /** The only line, with no line break, is no record's start: a file that never was a journal (never cut). */
  foreign?: true | undefined;
}

/** Splits a journal into its records; a torn last line is reported, not an error. */
export function decodeJournal(text: string): Framed {
  const lines: Framed['lines'] = [];
  let offset = 0;
  let wholeBytes = 0;
  let n = 0;
  while (offset < text.length) {
    n++;
    const end = text.indexOf('\n', offset);
    const line = end < 0 ? text.slice(offset) : text.slice(offset, end);
    const value = end < 0 ? undefined : decodeLine(line);
    const last = end < 0 || end === text.length - 1;
    if (value === undefined) {
      if (last && n === 1 && !mayBeRunRecord(line))
        return { lines, wholeBytes, torn: undefined, damaged: undefined, foreign: true };
      if (last) return { lines, wholeBytes, torn: n, damaged: undefined };
      return { lines, wholeBytes, torn: undefined, damaged: n };
    }
    lines.push({ line: n, value });
    offset = end + 1;
    wholeBytes += Buffer.byteLength(line) + 1;
  }
  return { lines, wholeBytes, torn: undefined, damaged: undefined };
}
