// `${{ ... }}` inside string values of a pipeline file: finding and parsing them (compiled.ts
// keeps the result; nothing parses text at run time).
import { ExprError, type Node } from './ast.ts';
import { parseExpression } from './parser.ts';

export interface ExprSegment {
  /** The expression text between ${{ and }}. */
  source: string;
  /** Offset of that text within the string. */
  offset: number;
  node: Node;
}

export type Segment = { text: string } | ExprSegment;

const OPEN = '${{';

/** Splits a string into text and parsed expressions; ExprError offsets are within the string. */
export function scanTemplate(value: string): Segment[] {
  const segments: Segment[] = [];
  let i = 0;
  while (i < value.length) {
    const start = value.indexOf(OPEN, i);
    if (start < 0) {
      segments.push({ text: value.slice(i) });
      break;
    }
    if (start > i) segments.push({ text: value.slice(i, start) });
    let j = start + OPEN.length;
    let quoted = false;
    while (j < value.length && (quoted || !value.startsWith('}}', j))) {
      if (value[j] === "'") quoted = !quoted;
      j++;
    }
    if (j >= value.length) throw new ExprError('${{ is not closed with }}', start);
    const source = value.slice(start + OPEN.length, j);
    const offset = start + OPEN.length;
    if (source.trim() === '') throw new ExprError('empty expression ${{ }}', start);
    try {
      segments.push({ source, offset, node: parseExpression(source) });
    } catch (error) {
      if (error instanceof ExprError) throw new ExprError(error.message, offset + error.offset);
      throw error;
    }
    i = j + 2;
  }
  return segments;
}
