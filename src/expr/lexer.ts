// Tokens of the expression grammar (pipeline-format.md, Expressions).
import { ExprError } from './ast.ts';

export type Token =
  | { type: 'number'; value: number; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'ident'; value: string; pos: number }
  | { type: 'op'; value: string; pos: number }
  | { type: 'end'; pos: number };

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '.', '[', ']', '(', ')', ','];
const NUMBER = /^(0x[0-9a-fA-F]+|-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*/;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new ExprError("unterminated string: close it with '", i);
        if (text[j] === "'") {
          if (text[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += text[j];
        j++;
      }
      tokens.push({ type: 'string', value, pos: i });
      i = j + 1;
      continue;
    }
    const rest = text.slice(i);
    const prev = tokens[tokens.length - 1];
    // A leading minus belongs to a number only where an operand may start.
    const operandMayStart = !prev || (prev.type === 'op' && prev.value !== ')' && prev.value !== ']');
    const num = NUMBER.exec(rest);
    if (num && (ch !== '-' || operandMayStart) && !(ch === '.' && prev?.type === 'ident')) {
      tokens.push({ type: 'number', value: Number(num[1]), pos: i });
      i += num[0].length;
      continue;
    }
    const ident = IDENT.exec(rest);
    if (ident) {
      tokens.push({ type: 'ident', value: ident[0], pos: i });
      i += ident[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (op) {
      tokens.push({ type: 'op', value: op, pos: i });
      i += op.length;
      continue;
    }
    // The object filter of GitHub's expressions: `.*` (steps.x.instances.*.matrix.target).
    if (ch === '*' && prev?.type === 'op' && prev.value === '.') {
      tokens.push({ type: 'op', value: '*', pos: i });
      i += 1;
      continue;
    }
    if (ch === '"') throw new ExprError("strings use single quotes: 'text'", i);
    if (rest.startsWith('===') || rest.startsWith('!=='))
      throw new ExprError(`${rest.slice(0, 3)} is not an operator: write ${rest.slice(0, 2)}`, i);
    if (prev?.type === 'op' && (prev.value === '==' || prev.value === '!=') && ch === '=')
      throw new ExprError(`${prev.value}= is not an operator: write ${prev.value}`, prev.pos);
    if ('+-*/%'.includes(ch))
      throw new ExprError(
        `${ch} is not an operator: expressions compare and combine values (== != < <= > >= && || !), they do no arithmetic`,
        i,
      );
    throw new ExprError(`unexpected character ${JSON.stringify(ch)}`, i);
  }
  tokens.push({ type: 'end', pos: text.length });
  return tokens;
}
