// Base64 wrapped at a fixed width (MIME's 76 columns, PEM's 64): a line break may fall inside a
// secret's base64, where no form of it is found. A text is searched again, with those line
// breaks removed, only when a line break sits inside a run that looks like base64 (at least
// LINE base64 characters before it, one after it); any other text costs one look per line break.

import { MASK } from '../text/mask.ts';

/** The fewest base64 characters before a line break that make it a wrapped line's end. */
const LINE = 16;

/** A line break (`\n`, `\r\n`) as written or JSON-escaped. */
const BREAKS = ['\n', '\\n'];

function base64Char(code: number): boolean {
  return (
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    (code >= 48 && code <= 57) || // 0-9
    code === 43 || // +
    code === 47 || // /
    code === 45 || // - (URL-safe)
    code === 95 // _ (URL-safe)
  );
}

/** The stretches [from, to) of `text` that are line breaks inside base64 runs, in order. */
function wraps(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const brk of BREAKS) {
    for (let at = text.indexOf(brk); at !== -1; at = text.indexOf(brk, at + 1)) {
      let from = at;
      if (brk === '\n' && text.charCodeAt(from - 1) === 13) from--;
      else if (brk === '\\n' && text.startsWith('\\r', from - 2)) from -= 2;
      // Most line breaks end a line of prose or a table row: one look rejects them.
      if (from < LINE || !base64Char(text.charCodeAt(from - 1))) continue;
      let to = at + brk.length;
      while (text.charCodeAt(to) === 32 || text.charCodeAt(to) === 9) to++;
      if (!base64Char(text.charCodeAt(to))) continue;
      let run = 1;
      while (run < LINE && base64Char(text.charCodeAt(from - 1 - run))) run++;
      if (run === LINE) out.push([from, to]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/**
 * `text` with every match of `pattern` (the forms as written) that spans a line break inside a
 * base64 run masked: the text is searched with those line breaks removed (matches that span none
 * were masked already).
 */
export function maskWrapped(text: string, pattern: RegExp): string {
  if (!text.includes('\n') && !text.includes('\\n')) return text;
  const cuts = wraps(text);
  if (cuts.length === 0) return text;
  // The joined text, and where each cut falls in it: [joined position, raw length removed before it].
  let joined = '';
  let at = 0;
  const marks: [number, number][] = [];
  let removed = 0;
  for (const [from, to] of cuts) {
    if (from < at) continue;
    joined += text.slice(at, from);
    removed += to - from;
    marks.push([joined.length, removed]);
    at = to;
  }
  joined += text.slice(at);
  /** A joined position's raw position; `end`: the position just after a character (before a cut). */
  const raw = (pos: number, end: boolean) => {
    let shift = 0;
    for (const [mark, total] of marks) if (mark < pos || (mark === pos && !end)) shift = total;
    return pos + shift;
  };
  const spans: [number, number][] = [];
  for (const m of joined.matchAll(pattern)) {
    const start = m.index;
    const end = start + m[0].length;
    if (marks.some(([mark]) => mark > start && mark < end)) spans.push([raw(start, false), raw(end, true)]);
  }
  if (spans.length === 0) return text;
  let out = '';
  at = 0;
  for (const [from, to] of spans) {
    if (from < at) continue;
    out += text.slice(at, from) + MASK;
    at = to;
  }
  return out + text.slice(at);
}
