// Base64 wrapped at a fixed width (MIME's 76 columns, PEM's 64): a line break may fall inside a
// secret's base64, where no form of it is found. A text is searched again, with those line
// breaks removed, only when a line break sits inside a run that looks like base64 (at least
// LINE base64 characters before it, one after it); any other text costs one look per line break.

import { MASK } from '../text/mask.ts';
import { hasHexRun } from './secret-forms.ts';
import type { Alternation } from './form-index.ts';

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
 * `text` with every match of `pattern` (the forms as written, global) or of `hex` (the hex forms) that
 * spans a line break inside a base64 run masked (wrappedSpans).
 */
export function maskWrapped(text: string, pattern: Alternation, hex: Alternation, longest: number): string {
  return maskSpans(text, wrappedSpans(text, pattern, hex, longest));
}

/**
 * The spans [from, to) of `text` that match `pattern` (global) or `hex` across a line break inside a
 * base64 run: around each such break, as far as `longest` (the longest form's length, a run of
 * white space counted once) either side, the text is searched with those line breaks removed
 * (matches that span none are not given: they were found without the joining).
 */
export function wrappedSpans(
  text: string,
  pattern: Alternation,
  hex: Alternation,
  longest: number,
): [number, number][] {
  if (!text.includes('\n') && !text.includes('\\n')) return [];
  const cuts = wraps(text);
  if (cuts.length === 0) return [];
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
  for (const [from, to] of windows(joined, marks, longest)) {
    const window = joined.slice(from, to);
    for (const forms of hex.size > 0 && hasHexRun(window) ? [pattern, hex] : [pattern]) {
      const re = forms.for(window);
      if (re)
        for (const [start, end] of spanning(window, re, marks, from))
          spans.push([raw(start + from, false), raw(end + from, true)]);
    }
  }
  return spans;
}

/**
 * The stretches [from, to) of `joined` within `longest` characters (a run of white space counted
 * once: a form's white space matches any run of it) of a cut, overlapping ones merged.
 */
function windows(joined: string, marks: [number, number][], longest: number): [number, number][] {
  const out: [number, number][] = [];
  const space = (at: number) => /\s/.test(joined[at] ?? '');
  for (const [mark] of marks) {
    let from = mark;
    for (let n = 0; n < longest && from > 0; n++) {
      from--;
      while (from > 0 && space(from) && space(from - 1)) from--;
    }
    let to = mark;
    for (let n = 0; n < longest && to < joined.length; n++) {
      to++;
      while (to < joined.length && space(to - 1) && space(to)) to++;
    }
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * The matches of `pattern` in `window` (at `offset` in the joined text) that span a cut. A match
 * that spans none does not hide one that starts inside it: the search goes on from its second
 * character.
 */
function spanning(window: string, pattern: RegExp, marks: [number, number][], offset: number): [number, number][] {
  const out: [number, number][] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(window); m !== null; m = pattern.exec(window)) {
    const start = m.index + offset;
    const end = start + m[0].length;
    if (marks.some(([mark]) => mark > start && mark < end)) out.push([m.index, m.index + m[0].length]);
    else pattern.lastIndex = m.index + 1;
    if (m[0].length === 0) pattern.lastIndex = m.index + 1;
  }
  pattern.lastIndex = 0;
  return out;
}

/** `text` with each span [from, to) replaced by MASK, overlapping spans as one. */
export function maskSpans(text: string, spans: [number, number][]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [from, to] of spans.sort((a, b) => a[0] - b[0] || b[1] - a[1])) {
    if (to <= at) continue;
    out += from >= at ? text.slice(at, from) + MASK : '';
    at = to;
  }
  return out + text.slice(at);
}
