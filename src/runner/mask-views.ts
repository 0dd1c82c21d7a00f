// A secret's forms found in a text's views (text/decoded-view.ts, and text/terminal-view.ts where
// a terminal would read it otherwise): the pattern a form reads as there, the hex forms in the runs
// of hex digits a view joined, the forms across a wrapped line's break, and the raw spans of the
// text their matches came from, masked.

import { DecodedView, hiddenOnPage } from '../text/decoded-view.ts';
import { TerminalView } from '../text/terminal-view.ts';
import { hasHexRun, hexRuns } from './secret-forms.ts';
import { maskSpans, wrappedSpans } from './wrapped-base64.ts';
import { MARKDOWN_LIMIT } from '../text/markdown-limit.ts';
import { escapeRegExp } from '../text/escape.ts';
import type { Alternation } from './form-index.ts';

/** Long texts are searched for escaped secrets in windows this long, overlapping by WINDOW_OVERLAP. */
const WINDOW = 1 << 20;
/** The longest escaped spelling of a secret found across a window's edge. */
const WINDOW_OVERLAP = 1 << 16;

/**
 * A form as it reads in a text's view (text/decoded-view.ts). The text's escapes are undone
 * there, so the form reads as itself, but what looks like an escape in the form itself (`%0a`,
 * `&amp;`, `\\n`) may have been undone too, and a page may have dropped its hidden characters
 * (`_`, `*`, a backslash); white space may be any run of it or of `+` (a space, form-encoded).
 */
export function viewPattern(form: string): string {
  const literal = (text: string) =>
    [...text.matchAll(/\s+|[^]/gu)]
      .map(([c]) => (/^\s/.test(c) ? '[\\s+]+' : hiddenOnPage(c) ? `${escapeRegExp(c)}?` : escapeRegExp(c)))
      .join('');
  let out = '';
  let at = 0;
  for (const edit of new DecodedView(form, true).edits()) {
    out += literal(form.slice(at, edit.rawAt));
    const raw = form.slice(edit.rawAt, edit.rawAt + edit.rawLength);
    out += edit.text === '' ? `(?:${literal(raw)})?` : `(?:${literal(raw)}|${literal(edit.text)})`;
    at = edit.rawAt + edit.rawLength;
  }
  return out + literal(form.slice(at));
}

/**
 * Whether each code unit of `form` reads as itself, side by side with its plain neighbours, in
 * every match of viewPattern(form): not white space, not a character a page may drop, not part
 * of what looks like an escape (form-index.ts keys a form by such units).
 */
export function viewPlain(form: string): (i: number) => boolean {
  if (!/[^A-Za-z0-9+/=-]/.test(form)) return () => true; // base64 and most passwords: nothing to undo
  const plain = Array.from({ length: form.length }, (_, i) => !/\s/.test(form[i]!));
  for (let i = 0; i < form.length; i++) {
    const cp = form.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    if (hiddenOnPage(String.fromCodePoint(cp))) plain.fill(false, i, i + units);
    i += units - 1;
  }
  // Only these begin an escape (text/decoded-view.ts); what else the view drops is hidden on a page.
  if (/[%&\\\]]/.test(form))
    for (const edit of new DecodedView(form, true).edits()) plain.fill(false, edit.rawAt, edit.rawAt + edit.rawLength);
  return (i) => plain[i]!;
}

/** A reading of a text: what it reads as, and the raw text behind each stretch of it. */
interface View {
  readonly text: string;
  rawSpan(start: number, end: number): [number, number];
}

/** What the views are searched for: the forms as they read there, the hex forms, the longest form's length. */
export interface ViewPatterns {
  view: Alternation;
  hex: Alternation;
  longest: number;
}

/**
 * `text` with every form found in its views replaced, in the raw text it came from: the decoded
 * view (text/decoded-view.ts), and, where it dropped a terminal's escape control, the terminal's
 * view too (text/terminal-view.ts), which drops each sequence whole. Page noise counts only in a
 * text short enough to be rendered as Markdown; a long text is searched in overlapping windows,
 * so a view never copies more than a window of it.
 */
export function maskViews(text: string, patterns: ViewPatterns): string {
  const page = text.length <= MARKDOWN_LIMIT;
  const spans: [number, number][] = [];
  for (let start = 0; start < text.length; start += WINDOW) {
    const end = Math.min(text.length, start + WINDOW + WINDOW_OVERLAP);
    const window = start === 0 && end === text.length ? text : text.slice(start, end);
    const view = new DecodedView(window, page);
    found(view, window, patterns, start, spans);
    if (view.terminal) found(new TerminalView(window), window, patterns, start, spans);
    if (end === text.length) break;
  }
  return maskSpans(text, spans);
}

/**
 * `spans` with the raw span (at `offset`) of every form found in `view` of `raw`: the forms as
 * they read there; where the view reads otherwise than the raw text (the raw text as it is was
 * searched already), the hex forms in each run of hex digits the view joined or decoded (its raw
 * text is longer than it), and the forms across a wrapped line's break (base64 wrapped at 76
 * columns, then URL- or HTML-escaped, or split by invisible characters).
 */
function found(view: View, raw: string, patterns: ViewPatterns, offset: number, spans: [number, number][]): void {
  const at: [number, number][] = [];
  const forms = patterns.view.for(view.text);
  if (forms) matches(forms, view.text, 0, at);
  if (view.text !== raw) {
    if (patterns.hex.size > 0 && hasHexRun(view.text))
      for (const [from, to] of hexRuns(view.text)) {
        const [rawFrom, rawTo] = view.rawSpan(from, to);
        const run = view.text.slice(from, to);
        const hex = rawTo - rawFrom !== to - from ? patterns.hex.for(run) : undefined;
        if (hex) matches(hex, run, from, at);
      }
    at.push(...wrappedSpans(view.text, patterns.view, patterns.hex, patterns.longest));
  }
  for (const [from, to] of at) {
    const [rawFrom, rawTo] = view.rawSpan(from, to);
    spans.push([rawFrom + offset, rawTo + offset]);
  }
}

/**
 * `spans` with every match of `pattern` (global) in `text`, at `offset`. By exec on the pattern
 * itself: matchAll would copy it, and a copy of a pattern of thousands of forms is compiled again.
 */
export function matches(pattern: RegExp, text: string, offset: number, spans: [number, number][]): [number, number][] {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    spans.push([offset + m.index, offset + m.index + m[0].length]);
    if (m[0].length === 0) pattern.lastIndex++;
  }
  pattern.lastIndex = 0;
  return spans;
}
