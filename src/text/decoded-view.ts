// Text as a reader sees it once every escape is undone: percent-encoding (either case, UTF-8
// runs), HTML references (named, decimal, hex), JSON escapes (`\"`, `\/`, `\u00e9`), and what a
// rendered page hides dropped (emphasis and strike marks, code-span backticks, link brackets and
// targets, Markdown's backslash escapes). Characters no reader sees (zero-width, soft hyphen,
// joiners, bidi controls, fillers, NUL and other controls, noncharacters, lone surrogates) are
// dropped from every view, however they are written: as themselves or as an escape (`&shy;`,
// `&#x200B;`, `%C2%AD`, `\u0000`; a JSON escape of a surrogate pair is one escape). The masker
// looks for a secret's view in the text's view, so a secret spelt in any of these ways, or split
// by Markdown that a page joins again, is found; each match maps back to the raw text it came from.
// A terminal's escape sequences are dropped whole by the terminal's view (text/terminal-view.ts),
// which this view's `terminal` says is worth building.
import { characterEntities } from 'character-entities';
import { Spliced, type Edit } from './spliced.ts';

/** Each escape, at the position of its first character (sticky). */
const ESCAPE: Readonly<Record<string, RegExp>> = {
  '%': /(?:%[0-9a-fA-F]{2})+/y,
  '&': /&(?:#\d+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z][A-Za-z0-9]*;)/y,
  '\\': /\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|["\\/bfnrt]|(?=[!-/:-@[-`{-~]))/y,
  ']': /\](?:\([^)\s]*\))?/y,
};

/** Marks a rendered page may not show: emphasis and strike marks, backticks, `[`. */
function markup(code: number): boolean {
  return code === 42 || code === 95 || code === 126 || code === 96 || code === 91;
}

/**
 * A code point no reader sees, which joins the text around it: every default-ignorable code point
 * (Unicode's Default_Ignorable_Code_Point: soft hyphen, zero-width characters and joiners, bidi
 * marks, embeddings and isolates, invisible operators, fillers, variation selectors, tags) and
 * every control but white space (NUL, ESC, DEL, C1): a browser, GitHub and a terminal show none.
 * And what a report may drop after the masker: every noncharacter (U+FDD0 to U+FDEF, U+xFFFE and
 * U+xFFFF in every plane: the JUnit report drops U+FFFE and U+FFFF, which XML cannot hold) and a
 * lone surrogate (a caller passes a surrogate only when it is not one half of a pair).
 */
export function invisible(cp: number): boolean {
  if (cp < 0x7f) return cp < 0x20 && (cp < 9 || cp > 13);
  if (cp < 0x34f) return cp <= 0x9f || cp === 0xad;
  return (
    cp === 0x34f ||
    cp === 0x61c ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    (cp >= 0x180b && cp <= 0x180f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0x3164 ||
    (cp >= 0xd800 && cp <= 0xdfff) ||
    (cp >= 0xfdd0 && cp <= 0xfdef) ||
    (cp & 0xfffe) === 0xfffe ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    cp === 0xffa0 ||
    (cp >= 0xfff0 && cp <= 0xfff8) ||
    (cp >= 0x1bca0 && cp <= 0x1bca3) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe0fff)
  );
}

/**
 * The controls a terminal reads as an escape sequence's start (ESC; C1's DCS, SOS, CSI, OSC, PM
 * and APC) or end (BEL, C1's ST): kept by the view a terminal's view is built on, which drops
 * each sequence whole.
 */
function sequenceControl(cp: number): boolean {
  return cp === 0x1b || cp === 0x07 || cp === 0x90 || cp === 0x98 || (cp >= 0x9b && cp <= 0x9f);
}

/** Whether `cp` starts a terminal's escape sequence (ESC, or a C1 introducer). */
function introducer(cp: number): boolean {
  return cp === 0x1b || cp === 0x90 || cp === 0x98 || cp === 0x9b || cp === 0x9d || cp === 0x9e || cp === 0x9f;
}

/** How many code units of `raw` at `at` the view drops as one hidden character (0: none). */
function hiddenAt(raw: string, at: number, page: boolean, keep: boolean): number {
  const code = raw.charCodeAt(at);
  if (page && markup(code)) return 1;
  if (code < 0xd800 || code > 0xdfff) return invisible(code) && !(keep && sequenceControl(code)) ? 1 : 0;
  const cp = raw.codePointAt(at)!;
  if (cp > 0xffff) return invisible(cp) ? 2 : 0;
  // A lone surrogate, but a pair's low half (read with its high half, or the view's loop is at it).
  const pairLow = code >= 0xdc00 && at > 0 && (raw.charCodeAt(at - 1) & 0xfc00) === 0xd800;
  return pairLow ? 0 : 1;
}

/** `text` without its invisible characters (an escape's decoded text); `keep`: but a terminal's sequence controls. */
function visible(text: string, keep: boolean): string {
  let out = '';
  for (const c of text) {
    const cp = c.codePointAt(0)!;
    if (!invisible(cp) || (keep && sequenceControl(cp))) out += c;
  }
  return out;
}

/** A character a page may drop: a mark, an invisible character, a link's `]` or a Markdown escape's backslash. */
export function hiddenOnPage(char: string): boolean {
  const cp = char.codePointAt(0)!;
  return char.length === (cp > 0xffff ? 2 : 1) && (markup(cp) || invisible(cp) || char === ']' || char === '\\');
}

/** The escape starting at `at`, or '' when none does. */
function escapeAt(raw: string, at: number): string {
  const pattern = ESCAPE[raw[at]!];
  if (!pattern) return '';
  pattern.lastIndex = at;
  return pattern.exec(raw)?.[0] ?? '';
}

/** A run of raw text standing for other text in the view. */
function decode(token: string): string {
  const first = token[0];
  if (first === '%') {
    try {
      return decodeURIComponent(token);
    } catch {
      return token; // not UTF-8: left as written
    }
  }
  if (first === '&') {
    if (token[1] !== '#') return characterEntities[token.slice(1, -1)] ?? token;
    const hex = token[2] === 'x' || token[2] === 'X';
    const code = parseInt(token.slice(hex ? 3 : 2), hex ? 16 : 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : token;
  }
  if (first === ']') return '';
  if (first === '\\') {
    if (token.length === 1) return '';
    if (token[1] === 'u')
      return String.fromCharCode(
        parseInt(token.slice(2, 6), 16),
        ...(token.length > 6 ? [parseInt(token.slice(8), 16)] : []),
      );
    return { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[token[1] as 'b'] ?? token[1]!;
  }
  return token;
}

export class DecodedView extends Spliced {
  /** Whether the view dropped a control that starts a terminal's escape sequence: a terminal's view may read otherwise. */
  readonly terminal: boolean;

  /**
   * `page`: also drop what a rendered page hides (for text short enough to be rendered as
   * Markdown). `keep`: keep the controls of a terminal's escape sequences (text/terminal-view.ts).
   */
  constructor(raw: string, page: boolean, keep = false) {
    const decoded = decodedEdits(raw, page, keep);
    super(raw, decoded.edits);
    this.terminal = decoded.terminal;
  }
}

/** The edits that make `raw` read as a reader sees it, and whether a terminal's sequence control was dropped. */
function decodedEdits(raw: string, page: boolean, keep: boolean): { edits: Edit[]; terminal: boolean } {
  const edits: Edit[] = [];
  let terminal = false;
  for (let at = 0; at < raw.length; at++) {
    const code = raw.charCodeAt(at);
    const width = hiddenAt(raw, at, page, keep);
    if (width) {
      let end = at + width;
      while (end < raw.length) {
        const next = hiddenAt(raw, end, page, keep);
        if (!next) break;
        end += next;
      }
      for (let k = at; k < end && !terminal; k++) terminal = introducer(raw.charCodeAt(k));
      edits.push({ at, length: end - at, text: '' });
      at = end - 1;
    } else if (
      ((code === 37 || code === 38) && at + 1 < raw.length && raw.charCodeAt(at + 1) > 32) ||
      (page && code === 93) ||
      // A backslash after ESC ends a terminal's string (ST), kept as it is where the controls are.
      (code === 92 && at + 1 < raw.length && raw.charCodeAt(at + 1) > 32 && !(keep && raw.charCodeAt(at - 1) === 0x1b))
    ) {
      const token = escapeAt(raw, at);
      if (token === '' || (!page && token[0] === '\\' && token.length === 1)) continue;
      const decoded = decode(token);
      const view = visible(decoded, keep);
      if (!terminal && view !== decoded) for (const c of decoded) terminal ||= introducer(c.codePointAt(0)!);
      if (view !== token) edits.push({ at, length: token.length, text: view });
      at += token.length - 1;
    }
  }
  return { edits, terminal };
}

/** Text in which no escape, hidden character or `+` for a space can hide anything: the plain forms suffice. */
export function viewIsRaw(text: string): boolean {
  return !MAY_HIDE.test(text);
}

/** An escape's first character, a mark, `+`, or an invisible character (as `invisible` says; `\p{Cs}`: a lone surrogate). */
const MAY_HIDE =
  // eslint-disable-next-line no-control-regex
  /[%&+\\\]*_~`[\0-\x08\x0E-\x1F\x7F-\x9F\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\p{Cs}]/u;
