// Text as a terminal shows it: every escape sequence dropped whole, as a terminal reads it
// (ECMA-48: a CSI, 7- or 8-bit, up to its final byte; an OSC, DCS, SOS, PM or APC string up to BEL
// or ST, or to the end of the text; ESC and the character it selects), on the decoded view of the
// text (text/decoded-view.ts, escapes undone, invisible characters dropped), so a sequence
// written as an escape (JSON's `\u001b`, which `jq -r` prints as ESC) is dropped too. A text with
// `tok\x1b[0men` shows `token` on a terminal, or where a later CI step prints it (GitHub's log
// renders colours); the decoded view, which drops ESC alone, reads `tok[0men` there (a browser's
// reading). The masker searches both, so each reading is covered; this one is built only for a
// text whose decoded view dropped a sequence's control (DecodedView.terminal).
import { DecodedView } from './decoded-view.ts';
import { Spliced, type Edit } from './spliced.ts';

/** A terminal's escape sequence, or a control left alone that shows nothing. */
const SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]|[\x07\x1b\x9b\x9c]/g;

export class TerminalView {
  /** The text as a terminal shows it. */
  readonly text: string;
  private readonly decoded: DecodedView;
  private readonly shown: Spliced;

  constructor(raw: string) {
    this.decoded = new DecodedView(raw, false, true);
    const edits: Edit[] = [];
    for (const m of this.decoded.text.matchAll(SEQUENCE)) edits.push({ at: m.index, length: m[0].length, text: '' });
    this.shown = new Spliced(this.decoded.text, edits);
    this.text = this.shown.text;
  }

  /** The raw text behind the view's characters [start, end). */
  rawSpan(start: number, end: number): [number, number] {
    const [from, to] = this.shown.rawSpan(start, end);
    return this.decoded.rawSpan(from, to);
  }
}
