// Any Markdown kept under a byte limit (a job summary's 1 MiB, a PR comment's 65,536 characters):
// a text that fits is kept whole; a longer one is cut at the last whole line that fits, the code
// fence and the <details> folds it leaves open closed again, and a note says where it was cut and
// where the whole is. For a text no renderer fitted itself (a dry run's calls, a live plan, an
// invalid pipeline's findings), and the last guard of each place that takes a summary.

/** The note put where the text was cut: `kib`, the limit it was cut at. */
export type CutNote = (kib: number) => string;

/** Room for the closing fence and folds. */
const CLOSERS = 256;

const byteLength = (text: string) => Buffer.byteLength(text);

/** `text` within `limit` bytes (see above); an empty text when not even the note fits. */
export function cutMarkdown(text: string, limit: number, note: CutNote): string {
  if (byteLength(text) <= limit) return text;
  const tail = `\n> **${note(Math.floor(limit / 1024))}**\n`;
  const bytes = Buffer.from(text);
  for (let room = limit - byteLength(tail) - CLOSERS; room > 0;) {
    let kept = bytes
      .subarray(0, room)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    kept = kept.slice(0, kept.lastIndexOf('\n') + 1);
    const cut = `${kept}${closers(kept)}${tail}`;
    const over = byteLength(cut) - limit;
    if (over <= 0) return cut;
    room -= over; // more folds to close than CLOSERS left room for
  }
  return byteLength(tail.trimStart()) <= limit ? tail.trimStart() : '';
}

/** What closes the code fence and the <details> folds `text` leaves open. */
function closers(text: string): string {
  let fence: string | undefined;
  let open = 0;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length)))
      fence = fence === undefined ? marker : undefined;
    else if (fence === undefined) {
      open += (line.match(/<details\b/gi) ?? []).length;
      open -= (line.match(/<\/details>/gi) ?? []).length;
    }
  }
  return `${fence ? `${fence}\n` : ''}${'\n</details>\n'.repeat(Math.max(0, open))}`;
}
