// A secret's forms found in a text's decoded view (text/decoded-view.ts): the pattern a form reads
// as there, and the raw spans of the text its matches came from, masked.

import { DecodedView, hiddenOnPage } from '../text/decoded-view.ts';
import { TerminalView } from '../text/terminal-view.ts';
import { MASK } from '../text/mask.ts';
import { MARKDOWN_LIMIT } from '../text/markdown-limit.ts';
import { escapeRegExp } from '../text/escape.ts';

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

/** A reading of a text: what it reads as, and the raw text behind each stretch of it. */
interface View {
  readonly text: string;
  rawSpan(start: number, end: number): [number, number];
}

/**
 * `text` with every match of `pattern` in its views replaced, in the raw text it came from: the
 * decoded view (text/decoded-view.ts), and, where it dropped a terminal's escape control, the
 * terminal's view too (text/terminal-view.ts), which drops each sequence whole. Page noise counts
 * only in a text short enough to be rendered as Markdown; a long text is searched in overlapping
 * windows, so a view never copies more than a window of it.
 */
export function maskViews(text: string, pattern: RegExp): string {
  const page = text.length <= MARKDOWN_LIMIT;
  const spans: [number, number][] = [];
  for (let start = 0; start < text.length; start += WINDOW) {
    const end = Math.min(text.length, start + WINDOW + WINDOW_OVERLAP);
    const window = start === 0 && end === text.length ? text : text.slice(start, end);
    const view = new DecodedView(window, page);
    found(view, pattern, start, spans);
    if (view.terminal) found(new TerminalView(window), pattern, start, spans);
    if (end === text.length) break;
  }
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [from, to] of spans.sort((a, b) => a[0] - b[0])) {
    if (to <= at) continue;
    out += `${text.slice(at, Math.max(at, from))}${from >= at ? MASK : ''}`;
    at = to;
  }
  return out + text.slice(at);
}

/** `spans` with the raw span (at `offset`) of every match of `pattern` in `view`. */
function found(view: View, pattern: RegExp, offset: number, spans: [number, number][]): void {
  for (const m of view.text.matchAll(pattern)) {
    const [from, to] = view.rawSpan(m.index, m.index + m[0].length);
    spans.push([from + offset, to + offset]);
  }
}
