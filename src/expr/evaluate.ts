// Evaluates an expression AST against the contexts of a run. No eval, no Function: a tree walk.
import { ExprError, type Node } from './ast.ts';
import { Placeholder } from './placeholder.ts';
import { compare, looseEquals, toText, truthy, type Value } from './values.ts';
import { jsonErrorAt, parseBoundedJson, TooDeep } from '../text/bounded-json.ts';
import { secretSinkOf } from './secret-sink.ts';

export interface EvalScope {
  /** env, secrets, vars, matrix, steps, targets, pipeline. */
  contexts: Readonly<Record<string, Value>>;
  /** For success(), failure(), cancelled(). */
  status?: { failed: boolean; cancelled: boolean };
}

/** The result of an object filter (`.*`): a property read on it reads each element's. */
class Filtered extends Array<Value> {}

function filtered(values: Value[]): Filtered {
  const out = new Filtered();
  for (const v of values) if (v !== null && v !== undefined) out.push(v);
  return out;
}

function property(object: Value, key: string): Value {
  if (object instanceof Placeholder) return object.child(key);
  if (key === '*') {
    if (Array.isArray(object)) return filtered(object);
    return object !== null && typeof object === 'object' ? filtered(Object.values(object)) : filtered([]);
  }
  if (object instanceof Filtered) return filtered(object.map((v) => property(v, key)));
  if (object === null || typeof object !== 'object') return null;
  if (Array.isArray(object)) {
    if (!/^\d+$/.test(key)) return null;
    return object[Number(key)] ?? null;
  }
  return Object.hasOwn(object, key) ? ((object as Record<string, Value>)[key] ?? null) : null;
}

function format(node: Node, fmt: string, args: Value[]): string {
  return fmt.replace(/\{\{|\}\}|\{(\d+)\}|\{|\}/g, (match, n: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    if (n === undefined)
      throw new ExprError(`format(): a lone ${match} in the format string; write {{ or }} for a brace`, node.pos);
    if (Number(n) >= args.length) throw new ExprError(`format(): {${n}} has no argument`, node.pos);
    return toText(args[Number(n)]);
  });
}

function call(node: Extract<Node, { kind: 'call' }>, scope: EvalScope): Value {
  const status = scope.status ?? { failed: false, cancelled: false };
  switch (node.name) {
    case 'success':
      return !status.failed && !status.cancelled;
    case 'failure':
      return status.failed;
    case 'always':
      return true;
    case 'cancelled':
      return status.cancelled;
  }
  const args = node.args.map((a) => evaluate(a, scope));
  switch (node.name) {
    case 'contains': {
      const [haystack, needle] = args;
      if (Array.isArray(haystack)) return haystack.some((item) => looseEquals(item, needle));
      return toText(haystack).toLowerCase().includes(toText(needle).toLowerCase());
    }
    case 'startsWith':
      return toText(args[0]).toLowerCase().startsWith(toText(args[1]).toLowerCase());
    case 'endsWith':
      return toText(args[0]).toLowerCase().endsWith(toText(args[1]).toLowerCase());
    case 'format':
      return format(node, toText(args[0]), args.slice(1));
    case 'join': {
      const separator = args.length > 1 ? toText(args[1]) : ',';
      return Array.isArray(args[0]) ? args[0].map(toText).join(separator) : toText(args[0]);
    }
    case 'toJSON':
      return JSON.stringify(args[0] ?? null, null, 2);
    case 'fromJSON': {
      const parsed = fromJSON(node, toText(args[0]));
      // A JSON secret a server answered back: what the expression gives of it is a secret (compiled.ts).
      const sink = secretSinkOf(scope.contexts);
      if (sink?.isJsonSecret(parsed)) sink.jsonSecretsParsed++;
      return parsed;
    }
  }
  throw new ExprError(`unknown function ${node.name}()`, node.pos);
}

function fromJSON(node: Node, text: string): Value {
  try {
    return parseBoundedJson(text) as Value;
  } catch (error) {
    throw new ExprError(
      error instanceof TooDeep
        ? `fromJSON(): the value ${error.message}`
        : `fromJSON(): not valid JSON${jsonErrorAt(error)}`,
      node.pos,
    );
  }
}

/**
 * A call whose first argument is a literal (a format string, fromJSON's text) made once with the
 * others as null, when the expression is parsed: what fails whatever a run gives (format()'s {2}
 * with one argument, a lone brace, text that is not JSON) throws its ExprError then, so validate
 * says it at its column, not the step after the writes before it.
 */
export function checkLiteralCall(node: Extract<Node, { kind: 'call' }>): void {
  const [first, ...rest] = node.args;
  if (first?.kind !== 'literal') return;
  const nulls = rest.map((a): Node => ({ kind: 'literal', value: null, pos: a.pos }));
  call({ ...node, args: [first, ...nulls] }, { contexts: {} });
}

export function evaluate(node: Node, scope: EvalScope): Value {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'context':
      return Object.hasOwn(scope.contexts, node.name) ? (scope.contexts[node.name] ?? null) : null;
    case 'member':
      return property(evaluate(node.object, scope), node.property);
    case 'index':
      return property(evaluate(node.object, scope), toText(evaluate(node.index, scope)));
    case 'not':
      return !truthy(evaluate(node.operand, scope));
    case 'call':
      return call(node, scope);
    case 'binary': {
      if (node.op === '&&') {
        const left = evaluate(node.left, scope);
        return truthy(left) ? evaluate(node.right, scope) : left;
      }
      if (node.op === '||') {
        const left = evaluate(node.left, scope);
        return truthy(left) ? left : evaluate(node.right, scope);
      }
      const left = evaluate(node.left, scope);
      const right = evaluate(node.right, scope);
      if (node.op === '==') return looseEquals(left, right);
      if (node.op === '!=') return !looseEquals(left, right);
      const c = compare(left, right);
      if (c === undefined) return false;
      return node.op === '<' ? c < 0 : node.op === '<=' ? c <= 0 : node.op === '>' ? c > 0 : c >= 0;
    }
  }
}
