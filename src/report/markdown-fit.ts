// A Markdown summary fitted under a byte limit in one pass, in time linear in its pieces: each
// piece (a table row, a failure, an update report) is made once and measured once; when they do
// not all fit, they are taken by rank (the failing and in-doubt instances first, then the rest;
// within a rank, in the order its pieces give) while room is left, and put back in their places,
// and the caller says what was left out.

/** A piece of a section, one or more lines. */
export interface Block {
  text: string;
  /** Lower ranks are kept first when not everything fits. */
  rank: number;
  /** Within its rank, lower first (default: its place): pieces of two kinds of one rank taken in turn. */
  order?: number;
  /** What it is, for the note of what was left out: "step row", "update report". */
  what: string;
  /** Shown in its place when it is left out and there is room for this (a pointer). */
  cut?: string | undefined;
  /** Its size when not its text's: Infinity for a piece never shown whole. */
  size?: number;
}

export interface Section {
  head: string[];
  blocks: Block[];
  tail: string[];
  /** Left out whole when none of its blocks is kept (a list with nothing in it). */
  optional?: boolean;
}

/** Of each kind of piece: how many there were, and how many were left out. */
export type LeftOut = Map<string, { left: number; of: number }>;

const bytesOf = (text: string) => Buffer.byteLength(text) + 1;
const blockSize = (b: Block) => b.size ?? bytesOf(b.text);

/** Every section whole. */
export function joinSections(sections: readonly Section[]): string {
  const lines: string[] = [];
  for (const s of sections) lines.push(...s.head, ...s.blocks.map((b) => b.text), ...s.tail);
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The size of every section whole, in bytes. */
export function sizeOf(sections: readonly Section[]): number {
  let total = 0;
  for (const s of sections) {
    for (const line of s.head) total += bytesOf(line);
    for (const b of s.blocks) total += blockSize(b);
    for (const line of s.tail) total += bytesOf(line);
  }
  return total;
}

/**
 * The sections within `limit` bytes: `front` (the note of what was left out, made from what was,
 * at most `noteRoom` bytes; then what stands in for the rest, such as counts) goes after the first
 * section; the blocks are kept by rank, each in its place.
 */
export function fitSections(
  sections: readonly Section[],
  limit: number,
  front: { lines: string[]; note: (leftOut: LeftOut) => string[]; noteRoom: number },
): string {
  const blocks = sections.flatMap((s) => s.blocks);
  const sizes = blocks.map(blockSize);
  let room = limit - front.noteRoom;
  for (const line of front.lines) room -= bytesOf(line);
  for (const s of sections) for (const line of [...s.head, ...s.tail]) room -= bytesOf(line);
  // 0: left out, 1: kept, 2: its pointer kept.
  const kept = new Uint8Array(blocks.length);
  const byRank = new Map<number, number[]>();
  blocks.forEach((b, i) => {
    const group = byRank.get(b.rank);
    if (group) group.push(i);
    else byRank.set(b.rank, [i]);
  });
  for (const rank of [...byRank.keys()].sort((a, b) => a - b)) {
    const group = byRank.get(rank)!;
    if (group.some((i) => blocks[i]!.order !== undefined))
      group.sort((a, b) => (blocks[a]!.order ?? a) - (blocks[b]!.order ?? b));
    for (const i of group) {
      if (sizes[i]! > room) continue;
      kept[i] = 1;
      room -= sizes[i]!;
    }
  }
  for (let i = 0; i < blocks.length; i++) {
    const cut = blocks[i]!.cut;
    if (kept[i] || cut === undefined || bytesOf(cut) > room) continue;
    kept[i] = 2;
    room -= bytesOf(cut);
  }
  const leftOut: LeftOut = new Map();
  blocks.forEach((b, i) => {
    const count = leftOut.get(b.what) ?? { left: 0, of: 0 };
    count.of++;
    if (kept[i] !== 1) count.left++;
    leftOut.set(b.what, count);
  });
  const lines: string[] = [];
  let i = 0;
  sections.forEach((s, n) => {
    const own = s.blocks
      .map((b, j) => (kept[i + j] === 1 ? b.text : kept[i + j] === 2 ? b.cut! : undefined))
      .filter((t) => t !== undefined);
    i += s.blocks.length;
    if (!(s.optional && own.length === 0)) lines.push(...s.head, ...own, ...s.tail);
    if (n === 0) lines.push(...front.note(leftOut), ...front.lines);
  });
  return `${lines.join('\n').trimEnd()}\n`;
}

/** "4,000 of 6,000 step rows": what was left out, by kind, in the order given. */
export function leftOutPhrase(leftOut: LeftOut, plural: Readonly<Record<string, string>>): string {
  return [...leftOut]
    .filter(([, c]) => c.left > 0)
    .map(([what, c]) => `${c.left.toLocaleString('en')} of ${c.of.toLocaleString('en')} ${plural[what] ?? what}`)
    .join(', ');
}
