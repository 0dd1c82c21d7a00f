// How a journal record sits on disk: one JSON object per line, its last member a CRC-32 of the
// rest (`{"t":"send",...,"crc":"1a2b3c4d"}`), so the lines stay JSON for jq and a torn or damaged
// line is told from a whole one. A torn tail (a line cut by a crash, or with no line break) is
// what a killed writer leaves: it is cut off before anything is appended. A damaged line before
// the tail is not a crash's trace: the journal is refused.
import { Buffer } from 'node:buffer';
import { crc32 } from 'node:zlib';

const SUFFIX = /,"crc":"([0-9a-f]{8})"}$/;

/** The CRC-32 of a line's payload (text or its UTF-8 bytes: the same value). */
function hex(payload: string | Buffer): string {
  return crc32(payload).toString(16).padStart(8, '0');
}

/** A record as its line, line break included. */
export function encodeLine(record: object): string {
  return Buffer.concat(encodeLineBytes(record)).toString('utf8');
}

/**
 * A record as the bytes of its line, in two pieces (the record without its closing brace, then
 * the CRC member and the line break): a record of 100 MiB (an update report) is its JSON text and
 * those bytes once, never a second text with the CRC appended and its bytes besides.
 */
export function encodeLineBytes(record: object): [Buffer, Buffer] {
  const payload = Buffer.from(JSON.stringify(record));
  return [payload.subarray(0, payload.length - 1), Buffer.from(`,"crc":"${hex(payload)}"}\n`)];
}

/** The record of one line, or undefined when the line is not whole (cut, altered, not framed). */
export function decodeLine(line: string): unknown {
  const m = SUFFIX.exec(line);
  if (!m) return undefined;
  const payload = `${line.slice(0, m.index)}}`;
  if (hex(payload) !== m[1]) return undefined;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return undefined;
  }
}

export interface Framed {
  /** Each whole line's record, with its line number (from 1). */
  lines: { line: number; value: unknown }[];
  /** The bytes of the journal that are whole: where an append goes. */
  wholeBytes: number;
  /** A torn last line, cut off: its line number. */
  torn: number | undefined;
  /** A damaged line before the last: its line number (the journal is not to be trusted). */
  damaged: number | undefined;
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
      if (last) return { lines, wholeBytes, torn: n, damaged: undefined };
      return { lines, wholeBytes, torn: undefined, damaged: n };
    }
    lines.push({ line: n, value });
    offset = end + 1;
    wholeBytes += Buffer.byteLength(line) + 1;
  }
  return { lines, wholeBytes, torn: undefined, damaged: undefined };
}
