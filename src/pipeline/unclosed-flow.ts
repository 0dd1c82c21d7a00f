// A `{` or `[` never closed, told as what it is. The YAML library notices it only at the next line
// not indented past the collection, as BAD_INDENT "Flow map in block collection must be
// sufficiently indented and end with a }": at that line, in its own words, or (indentation.ts)
// as two keys at one column. The mistake is the bracket: where it was opened, and to close it.
import { CST, Parser } from 'yaml';
import type { Located } from './indentation.ts';

const NOT_CONTENT = new Set(['space', 'newline', 'comment']);

/** The flow collections in `token` (depth-first, outer before inner). */
function flowCollections(token: unknown, found: CST.FlowCollection[] = []): CST.FlowCollection[] {
  if (Array.isArray(token)) for (const t of token) flowCollections(t, found);
  else if (token && typeof token === 'object') {
    if ((token as CST.Token).type === 'flow-collection') found.push(token as CST.FlowCollection);
    for (const value of Object.values(token)) if (value && typeof value === 'object') flowCollections(value, found);
  }
  return found;
}

/** Where the last thing written in `token` ends (not spaces, line breaks or comments). */
function contentEnd(token: unknown): number {
  if (Array.isArray(token)) return Math.max(-1, ...token.map(contentEnd));
  if (!token || typeof token !== 'object') return -1;
  const t = token as { type?: string; offset?: number; source?: string };
  const own =
    typeof t.offset === 'number' && typeof t.source === 'string' && !NOT_CONTENT.has(t.type ?? '')
      ? t.offset + t.source.length
      : -1;
  return Math.max(own, ...Object.values(token).map((v) => (v && typeof v === 'object' ? contentEnd(v) : -1)));
}

/** Whether `flow` is closed by its own bracket (`{ a: [1 }` ends the `[` with a `}`: both are open). */
const closed = (flow: CST.FlowCollection) =>
  flow.end.some((t) => t.type === (flow.start.source === '{' ? 'flow-map-end' : 'flow-seq-end'));

/**
 * For the YAML library's error `message` at `offset` in `text`, the `{` or `[` left open before
 * it, when that is what the error is; `linePos` turns an offset into a 1-based line and column.
 */
export function unclosedFlow(
  message: string,
  text: string,
  offset: number,
  linePos: (offset: number) => { line: number; col: number },
): Located | undefined {
  const kind = /^Flow (map|sequence) in block collection must be sufficiently indented/.exec(message)?.[1];
  if (!kind) return undefined;
  const open = [...new Parser().parse(text)]
    .flatMap((doc) => flowCollections(doc))
    .filter((c) => c.start.offset < offset && c.start.source === (kind === 'map' ? '{' : '[') && !closed(c));
  // The innermost: the first to close.
  const flow = open[open.length - 1];
  if (!flow) return undefined;
  const bracket = flow.start.source;
  const close = bracket === '{' ? '}' : ']';
  const what = bracket === '{' ? 'mapping' : 'list';
  const at = linePos(flow.start.offset);
  const last = linePos(Math.max(flow.start.offset + 1, contentEnd(flow.items)) - 1).line;
  const next = linePos(offset).line;
  const until =
    text.slice(offset).trim() === '' ? ' before the end of the file' : next > at.line ? ` before line ${next}` : '';
  return {
    line: at.line,
    col: at.col,
    message: `this \`${bracket}\` is never closed: the ${what} it opens on line ${at.line} has no \`${close}\`${until}`,
    hint: `close it with \`${close}\` (at the end of line ${last})`,
  };
}
