// `${{ ... }}` inside string values: finding them, and resolving a whole value (which keeps the
// expression's type) or an interpolated string.
import { ExprError, type Node } from './ast.ts';
import { evaluate, type EvalScope } from './evaluate.ts';
import { parseExpression } from './parser.ts';
import { toText, type Value } from './values.ts';

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

export function hasExpression(value: string): boolean {
  return value.includes(OPEN);
}

/** The value of a string: a lone expression keeps its type; otherwise text is interpolated. */
export function resolveString(value: string, scope: EvalScope): Value {
  if (!hasExpression(value)) return value;
  const segments = scanTemplate(value);
  const exprs = segments.filter((s): s is ExprSegment => 'node' in s);
  const onlyText = segments.filter((s) => 'text' in s).every((s) => (s as { text: string }).text.trim() === '');
  if (exprs.length === 1 && onlyText) return evaluate(exprs[0]!.node, scope);
  return segments.map((s) => ('node' in s ? toText(evaluate(s.node, scope)) : s.text)).join('');
}

/** Resolves every string inside a value (objects and arrays walked), keeping other values. */
export function resolveDeep(value: Value, scope: EvalScope): Value {
  if (typeof value === 'string') return resolveString(value, scope);
  if (Array.isArray(value)) return value.map((v) => resolveDeep(v, scope));
  if (value && typeof value === 'object') {
    const out: Record<string, Value> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: resolveDeep(v, scope), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}
