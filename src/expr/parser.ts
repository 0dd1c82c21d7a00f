// A recursive-descent parser: || then && then ==/!= then comparisons then ! then access and calls.
import { ExprError, type BinaryOp, type Node } from './ast.ts';
import { didYouMean } from '../did-you-mean.ts';
import { tokenize, type Token } from './lexer.ts';
import { checkLiteralCall } from './evaluate.ts';

export const CONTEXTS = ['env', 'secrets', 'vars', 'matrix', 'steps', 'targets', 'pipeline'] as const;
export const FUNCTIONS: Readonly<Record<string, [min: number, max: number]>> = {
  success: [0, 0],
  failure: [0, 0],
  always: [0, 0],
  cancelled: [0, 0],
  contains: [2, 2],
  startsWith: [2, 2],
  endsWith: [2, 2],
  format: [1, Infinity],
  join: [1, 2],
  toJSON: [1, 1],
  fromJSON: [1, 1],
};

/**
 * Parsed expressions by text: a pipeline repeats `success()` and its conditions per step and per
 * matrix instance. The trees are never changed once built.
 */
const parsed = new Map<string, Node>();
const PARSED_LIMIT = 10_000;

export function parseExpression(text: string): Node {
  let node = parsed.get(text);
  if (node) return node;
  node = parseUncached(text);
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(text, node);
  return node;
}

/**
 * How deep an expression may nest: parentheses, `!`, calls and indexes inside each other, and the
 * depth of its tree (a chain of 50,000 `&&` is 50,000 deep). Past it a pipeline's expression is a
 * mistake or an attack on validate, refused at its place rather than overflowing the stack of the
 * parser or of every walk of the tree after it. GitHub's expressions stop at 50.
 */
export const MAX_DEPTH = 100;
const TOO_DEEP = `the expression nests too deeply (more than ${MAX_DEPTH} levels)`;

function parseUncached(text: string): Node {
  const tokens = tokenize(text);
  let i = 0;
  const depths = new Map<Node, number>();
  /** A node whose depth is one more than its deepest child's. */
  const made = <N extends Node>(node: N, ...children: Node[]): N => {
    const depth = 1 + children.reduce((deepest, child) => Math.max(deepest, depths.get(child) ?? 1), 0);
    if (depth > MAX_DEPTH) throw new ExprError(TOO_DEEP, node.pos);
    depths.set(node, depth);
    return node;
  };
  let nesting = 0;
  /** What the parser reads inside a (, a [, a call's parentheses or after a !. */
  const nested = <T>(pos: number, parse: () => T): T => {
    if (++nesting > MAX_DEPTH) throw new ExprError(TOO_DEEP, pos);
    try {
      return parse();
    } finally {
      nesting--;
    }
  };
  const peek = (): Token => tokens[i]!;
  const isOp = (value: string) => peek().type === 'op' && (peek() as { value: string }).value === value;
  const expect = (value: string, what: string) => {
    if (!isOp(value)) throw new ExprError(`expected ${what}`, peek().pos);
    i++;
  };

  const binary = (ops: BinaryOp[], next: () => Node) => (): Node => {
    let left = next();
    while (peek().type === 'op' && ops.includes((peek() as { value: BinaryOp }).value)) {
      const token = tokens[i++] as { value: BinaryOp; pos: number };
      const right = next();
      left = made({ kind: 'binary', op: token.value, left, right, pos: token.pos }, left, right);
    }
    return left;
  };

  const primary = (): Node => {
    const token = tokens[i]!;
    if (token.type === 'number' || token.type === 'string') {
      i++;
      return { kind: 'literal', value: token.value, pos: token.pos };
    }
    if (token.type === 'op' && token.value === '(') {
      i++;
      const inner = nested(token.pos, or);
      expect(')', 'a closing )');
      return inner;
    }
    if (token.type === 'ident') {
      i++;
      if (token.value === 'true' || token.value === 'false')
        return { kind: 'literal', value: token.value === 'true', pos: token.pos };
      if (token.value === 'null') return { kind: 'literal', value: null, pos: token.pos };
      if (isOp('(')) {
        const arity = Object.hasOwn(FUNCTIONS, token.value) ? FUNCTIONS[token.value] : undefined;
        if (!arity)
          throw new ExprError(
            `unknown function ${token.value}(); functions are ${Object.keys(FUNCTIONS).join(', ')}`,
            token.pos,
          );
        i++;
        const args: Node[] = [];
        if (!isOp(')')) {
          for (;;) {
            args.push(nested(token.pos, or));
            if (!isOp(',')) break;
            i++;
          }
        }
        expect(')', `a closing ) for ${token.value}()`);
        if (args.length < arity[0] || args.length > arity[1]) {
          const want =
            arity[0] === arity[1]
              ? `${arity[0]}`
              : arity[1] === Infinity
                ? `at least ${arity[0]}`
                : `${arity[0]} or ${arity[1]}`;
          throw new ExprError(`${token.value}() takes ${want} argument(s), got ${args.length}`, token.pos);
        }
        const node = made({ kind: 'call', name: token.value, args, pos: token.pos } as const, ...args);
        checkLiteralCall(node);
        return node;
      }
      if (!(CONTEXTS as readonly string[]).includes(token.value)) {
        const guess = didYouMean(token.value, CONTEXTS);
        throw new ExprError(
          `unknown context ${token.value}; ${guess ? `did you mean ${guess}? ` : ''}contexts are ${CONTEXTS.join(', ')}`,
          token.pos,
        );
      }
      return { kind: 'context', name: token.value, pos: token.pos };
    }
    if (token.type === 'end') throw new ExprError('the expression ends too early', token.pos);
    throw new ExprError(`unexpected ${(token as { value: string }).value}`, token.pos);
  };

  const postfix = (): Node => {
    let node = primary();
    for (;;) {
      if (isOp('.')) {
        i++;
        const name = peek();
        const filter = name.type === 'op' && name.value === '*';
        if (name.type !== 'ident' && !filter) throw new ExprError('expected a property name after .', name.pos);
        i++;
        node = made(
          { kind: 'member', object: node, property: filter ? '*' : (name as { value: string }).value, pos: name.pos },
          node,
        );
      } else if (isOp('[')) {
        const pos = peek().pos;
        i++;
        const index = nested(pos, or);
        expect(']', 'a closing ]');
        node = made({ kind: 'index', object: node, index, pos }, node, index);
      } else return node;
    }
  };

  const unary = (): Node => {
    if (isOp('!')) {
      const pos = peek().pos;
      i++;
      const operand = nested(pos, unary);
      return made({ kind: 'not', operand, pos }, operand);
    }
    return postfix();
  };

  const comparison = binary(['<', '<=', '>', '>='], unary);
  const equality = binary(['==', '!='], comparison);
  const and = binary(['&&'], equality);
  const or = binary(['||'], and);

  const node = or();
  if (peek().type !== 'end')
    throw new ExprError(
      `unexpected ${JSON.stringify((peek() as { value?: unknown }).value)} after the expression`,
      peek().pos,
    );
  return node;
}
