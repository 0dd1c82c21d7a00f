// Text written in a pipeline file, compiled once when the file is loaded: a string holding ${{ }}
// becomes a Template, a condition (`if`, assert's `that`) an Expression. At run time only these
// objects are evaluated; every plain string is data, whatever it holds. A value that arrives at
// run time (an API answer, a step output, a --var value, a matrix value, an action input) is
// never a Template, so it can never become code.
import { ExprError, type Node } from './ast.ts';
import { evaluate, type EvalScope } from './evaluate.ts';
import { parseExpression } from './parser.ts';
import { references, type Reference } from './references.ts';
import { scanTemplate, type ExprSegment, type Segment } from './template.ts';
import { toText, type Value } from './values.ts';
import { readsSecret, secretSinkOf, worthLearning } from './secret-sink.ts';

/** A string of the file with ${{ }} in it: text and parsed expressions. */
export class Template {
  constructor(
    /** The text as written in the file. */
    readonly source: string,
    readonly segments: readonly Segment[],
  ) {}

  /** A lone expression (blank text around it) keeps its type; otherwise the text is interpolated. */
  resolve(scope: EvalScope): Value {
    const exprs = this.segments.filter((s): s is ExprSegment => 'node' in s);
    const onlyBlank = this.segments.every((s) => 'node' in s || s.text.trim() === '');
    const sink = secretSinkOf(scope.contexts);
    // A value computed from a secret is told to the sink before anyone can show it (secret-sink.ts):
    // one read from a secret, or from a JSON secret a server answered back (fromJSON() parsed one).
    // `text`: the value is written into the text around it, and learnt as it is written there.
    const told = (s: ExprSegment, text: boolean): Value => {
      const parsed = sink?.jsonSecretsParsed;
      const value = evaluate(s.node, scope);
      const shown = text ? toText(value) : value;
      if (sink && (readsSecret(s.node, sink) || sink.jsonSecretsParsed !== parsed) && worthLearning(s.node, value))
        sink.learn(shown, s.source.trim());
      return shown;
    };
    if (exprs.length === 1 && onlyBlank) return told(exprs[0]!, false);
    return this.segments.map((s) => ('node' in s ? told(s, true) : s.text)).join('');
  }

  /** Shown as written (the dry run, messages). */
  toJSON(): string {
    return this.source;
  }

  toString(): string {
    return this.source;
  }
}

/** A condition of the file, bare or in one ${{ }}: `if`, assert's `that`. */
export class Expression {
  constructor(
    /** The condition as it is shown (without ${{ }}). */
    readonly source: string,
    readonly node: Node,
  ) {}

  evaluate(scope: EvalScope): Value {
    return evaluate(this.node, scope);
  }

  toJSON(): string {
    return this.source;
  }

  toString(): string {
    return this.source;
  }
}

/** A string of the file: a Template when it holds ${{ }}, else the string itself. Throws ExprError. */
export function compileString(text: string): string | Template {
  return text.includes('${{') ? new Template(text, scanTemplate(text)) : text;
}

/** Every string inside a value of the file compiled (lists and mappings walked, keys kept). */
export function compileValue(value: unknown): unknown {
  if (typeof value === 'string') return compileString(value);
  if (Array.isArray(value)) return value.map(compileValue);
  if (value && typeof value === 'object') return mapObject(value as Record<string, unknown>, compileValue);
  return value;
}

/**
 * The text of a condition: bare (`steps.a.outcome == 'success'`) or wholly inside one ${{ }}.
 * Text around or between ${{ }} is refused: it would be a string, always true.
 */
export function conditionText(raw: string): { text: string; offset: number } {
  const start = raw.search(/\S/);
  const trimmed = raw.trim();
  const whole = /^\$\{\{([\s\S]*)\}\}$/.exec(trimmed);
  if (whole && !whole[1]!.includes('${{')) return { text: whole[1]!, offset: start + 3 };
  const at = raw.indexOf('${{');
  if (at >= 0) throw new ExprError('a condition is one expression: write it bare, or wholly inside one ${{ }}', at);
  return { text: raw, offset: 0 };
}

/** A condition compiled; `text` is the expression as parsed (offsets are within it). */
export function compileCondition(text: string, shown = text.trim()): Expression {
  return new Expression(shown, parseExpression(text));
}

/**
 * Resolves every Template inside a compiled value. Plain strings stay as they are; an Expression
 * (a condition input) stays too, for its step to evaluate when it decides.
 */
export function resolveDeep(value: unknown, scope: EvalScope): Value {
  if (value instanceof Template) return value.resolve(scope);
  if (typeof value !== 'object' || value === null || value instanceof Expression) return value;
  if (Array.isArray(value)) return value.map((v) => resolveDeep(v, scope));
  return mapObject(value as Record<string, unknown>, (v) => resolveDeep(v, scope));
}

/** The contexts known before a run's first step: what an expression over them alone gives is known then. */
const BEFORE_THE_FIRST_STEP = new Set(['secrets', 'vars', 'env', 'pipeline']);

/**
 * Tells the sink of `scope` (secret-sink.ts), before the first step, each value an expression
 * inside a compiled value computes from a secret that it can compute then: one over secrets,
 * vars, env and the pipeline alone. An earlier step's answer, its record written ahead, may
 * hold what a later step computes (runner/scope.ts). One that reads a step or the matrix is
 * learnt when it is resolved, as any other; one that fails here fails at its step.
 */
export function learnSecretsAhead(value: unknown, scope: EvalScope): void {
  const sink = secretSinkOf(scope.contexts);
  if (!sink) return;
  if (value instanceof Template) {
    for (const s of value.segments) {
      if (!('node' in s) || !readsSecret(s.node, sink)) continue;
      if (!references(s.node).every((r) => BEFORE_THE_FIRST_STEP.has(r.path[0]!))) continue;
      try {
        const found = evaluate(s.node, scope);
        if (!worthLearning(s.node, found)) continue;
        sink.learn(found, s.source.trim());
        if (typeof found === 'object') sink.learn(toText(found), s.source.trim());
      } catch {
        // it fails at its step, which says why
      }
    }
  } else if (Array.isArray(value)) for (const v of value) learnSecretsAhead(v, scope);
  else if (value && typeof value === 'object' && !(value instanceof Expression))
    for (const v of Object.values(value)) learnSecretsAhead(v, scope);
}

/** Whether a compiled value holds anything to evaluate. */
export function isStatic(value: unknown): boolean {
  if (value instanceof Template || value instanceof Expression) return false;
  if (Array.isArray(value)) return value.every(isStatic);
  if (value && typeof value === 'object') return Object.values(value).every(isStatic);
  return true;
}

/** The context references of every expression inside a compiled value. */
export function compiledReferences(value: unknown, out: Reference[] = []): Reference[] {
  if (value instanceof Template) {
    for (const s of value.segments) if ('node' in s) references(s.node, out);
  } else if (value instanceof Expression) references(value.node, out);
  else if (Array.isArray(value)) for (const v of value) compiledReferences(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) compiledReferences(v, out);
  return out;
}

/** A copy of a mapping with each value mapped; keys such as __proto__ stay plain keys. */
function mapObject(value: Record<string, unknown>, f: (v: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    Object.defineProperty(out, k, { value: f(v), enumerable: true, writable: true, configurable: true });
  return out;
}
