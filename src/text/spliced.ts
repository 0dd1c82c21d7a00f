// A text with stretches of it replaced (an escape by what it stands for, a hidden character or a
// terminal's escape sequence by nothing), and the way back: which stretch of the original each of
// its characters came from. The masker searches such a view and masks the original it maps to.

/** A stretch [at, at + length) of the original replaced by `text`; edits are given in order and never overlap. */
export interface Edit {
  at: number;
  length: number;
  text: string;
}

export class Spliced {
  /** The text with every edit made. */
  readonly text: string;
  // Where each edit starts in the text and in the original, and how long it is in each.
  private readonly at: number[] = [];
  private readonly rawAt: number[] = [];
  private readonly len: number[] = [];
  private readonly rawLen: number[] = [];

  constructor(raw: string, edits: readonly Edit[]) {
    if (edits.length === 0) {
      this.text = raw;
      return;
    }
    const parts: string[] = [];
    let copied = 0;
    let shift = 0;
    for (const { at, length, text } of edits) {
      if (at > copied) parts.push(raw.slice(copied, at));
      if (text) parts.push(text);
      copied = at + length;
      this.at.push(at + shift);
      this.rawAt.push(at);
      this.len.push(text.length);
      this.rawLen.push(length);
      shift += text.length - length;
    }
    this.text = parts.join('') + raw.slice(copied);
  }

  /** Each stretch of the original that reads differently in the text, in order. */
  *edits(): Generator<{ rawAt: number; rawLength: number; text: string }> {
    for (let k = 0; k < this.at.length; k++)
      yield {
        rawAt: this.rawAt[k]!,
        rawLength: this.rawLen[k]!,
        text: this.text.slice(this.at[k]!, this.at[k]! + this.len[k]!),
      };
  }

  /** The stretch of the original behind the text's characters [start, end). */
  rawSpan(start: number, end: number): [number, number] {
    return [this.rawOf(start)[0], this.rawOf(end - 1)[1]];
  }

  private rawOf(index: number): [number, number] {
    let lo = 0;
    let hi = this.at.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid]! <= index) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (k === -1) return [index, index + 1];
    const into = index - this.at[k]!;
    if (into < this.len[k]!) return [this.rawAt[k]!, this.rawAt[k]! + this.rawLen[k]!];
    const raw = this.rawAt[k]! + this.rawLen[k]! + into - this.len[k]!;
    return [raw, raw + 1];
  }
}
