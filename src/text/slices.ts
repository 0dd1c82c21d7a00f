// Long text made of many small pieces (a report's rows, a JSON report's tokens), joined in slices:
// the pieces are joined into one string a slice at a time, as soon as the slice is made, and the
// slices are joined at the end. The text is the same as joining every piece at once; what differs
// is the memory. Held until one final join, a 10,000-site report's tens of thousands of pieces
// live through the young generation's collections, are copied at each and promoted to the old
// space: the HTML took 13-15x the time of a 1,000-site one's instead of 10x (bench/README.md).
// Held a slice at a time, they die young, and what lives on is a few large strings.

/** Characters gathered before the pieces are joined into one slice. */
export const SLICE_CHARS = 1 << 16;

/** Pieces of text, joined with `separator` a slice at a time. */
export class SliceJoiner {
  private readonly slices: string[] = [];
  private pieces: string[] = [];
  private chars = 0;

  constructor(private readonly separator = '') {}

  push(...pieces: string[]): void {
    for (const piece of pieces) {
      this.pieces.push(piece);
      this.chars += piece.length;
    }
    if (this.chars >= SLICE_CHARS) this.flush();
  }

  /** Every piece pushed, joined with the separator: the same text as one join of them all. */
  text(): string {
    this.flush();
    return this.slices.join(this.separator);
  }

  private flush(): void {
    if (this.pieces.length === 0) return;
    this.slices.push(this.pieces.join(this.separator));
    this.pieces = [];
    this.chars = 0;
  }
}

/** items.map(render).join(separator), joined a slice at a time. */
export function joinMapped<T>(items: Iterable<T>, render: (item: T, index: number) => string, separator = ''): string {
  const out = new SliceJoiner(separator);
  let i = 0;
  for (const item of items) out.push(render(item, i++));
  return out.text();
}

/** The pieces joined (with no separator) a slice at a time. */
export function joinPieces(pieces: Iterable<string>): string {
  const out = new SliceJoiner();
  for (const piece of pieces) out.push(piece);
  return out.text();
}
