// Who hears a value an expression computed from a secret: a field of a JSON secret
// (`fromJSON(secrets.CREDS).password`), a list secret joined, a format string that is a secret, a
// number read from one. Each is a secret too, wherever the expression is written (a step's name,
// its inputs, a server's fields), as a var that reads one always was: the run's masker learns it
// before anything shows it (runner/scope.ts).
//
// The sink travels in the contexts under a symbol: copied with them wherever they are spread (an
// instance's scope, a name's), never seen by an expression, which reads contexts by name.
import { children, type Node } from './ast.ts';
import { references, type Reference } from './references.ts';
import type { Value } from './values.ts';

/** The names whose values are secrets besides `secrets.*`. */
export interface SecretNames {
  /** The vars that hold a secret (they read one): reading them is reading a secret. */
  readonly vars: ReadonlySet<string>;
  /** The environment variables that are secrets (the file reads them as secrets.NAME): env.NAME is one too. */
  readonly env: ReadonlySet<string>;
}

export interface SecretSink extends SecretNames {
  /** Hears a value computed from a secret (`expression`: its text, to name it in a warning). */
  learn(value: Value, expression: string): void;
  /** Whether `value`, which fromJSON() parsed, is a JSON secret given (a server answered one back). */
  isJsonSecret(value: Value): boolean;
  /**
   * How many JSON secrets fromJSON() has parsed so far (expr/evaluate.ts counts them): an
   * expression during which it grew gives a value made of a secret, learnt as one (compiled.ts).
   */
  jsonSecretsParsed: number;
}

export const SECRET_SINK = Symbol('secret sink');

/** `contexts` carrying `sink` (see above). */
export function withSecretSink<T extends object>(contexts: T, sink: SecretSink): T {
  return Object.defineProperty(contexts, SECRET_SINK, { value: sink, enumerable: true });
}

export function secretSinkOf(contexts: object): SecretSink | undefined {
  return (contexts as { [SECRET_SINK]?: SecretSink })[SECRET_SINK];
}

/** What an expression reads of vars and env: the names, and whether it reads one it cannot name (`vars[x]`, `toJSON(env)`). */
interface Reads {
  secrets: boolean;
  vars: string[];
  anyVar: boolean;
  env: string[];
  anyEnv: boolean;
}

const readsOf = new WeakMap<Node, Reads>();

const NONE: Reads = { secrets: false, vars: [], anyVar: false, env: [], anyEnv: false };

/**
 * Whether the expression computes a value from a secret: it reads `secrets`, a var that holds one
 * or an environment variable that is one (or vars or env by a name it computes, when any is), and
 * is more than a name of one (`secrets.X`, `vars.pw`: learnt as themselves already).
 */
export function readsSecret(node: Node, sink: SecretSink): boolean {
  let reads = readsOf.get(node);
  if (!reads) {
    reads = namesOne(node, 0) ? NONE : readsOfRefs(references(node));
    readsOf.set(node, reads);
  }
  return secretIn(reads, sink);
}

/**
 * Whether references read a secret (`secrets`, a secret var, an environment variable that is a
 * secret, or vars or env by a computed name when any is): the one rule of what holds a secret,
 * for a var's definition (runner/scope.ts, runner/file-secrets.ts, pipeline/normalise.ts) as for
 * any expression (readsSecret).
 */
export function refsReadSecret(refs: readonly Reference[], known: SecretNames): boolean {
  return secretIn(readsOfRefs(refs), known);
}

function readsOfRefs(refs: readonly Reference[]): Reads {
  const named = (context: string) =>
    refs.flatMap((r) => (r.path[0] === context && r.path[1] !== undefined ? [r.path[1]] : []));
  const unnamed = (context: string) => refs.some((r) => r.path[0] === context && r.path[1] === undefined);
  return {
    secrets: refs.some((r) => r.path[0] === 'secrets'),
    vars: named('vars'),
    anyVar: unnamed('vars'),
    env: named('env'),
    anyEnv: unnamed('env'),
  };
}

function secretIn(reads: Reads, known: SecretNames): boolean {
  return (
    reads.secrets ||
    reads.vars.some((name) => known.vars.has(name)) ||
    (reads.anyVar && known.vars.size > 0) ||
    reads.env.some((name) => known.env.has(name)) ||
    (reads.anyEnv && known.env.size > 0)
  );
}

/** Whether `node` names a value of a context by literal names (`secrets.X`, `vars['pw'].y`), not a whole context. */
function namesOne(node: Node, depth: number): boolean {
  if (node.kind === 'context') return depth > 0;
  if (node.kind === 'member') return namesOne(node.object, depth + 1);
  if (node.kind === 'index') return node.index.kind === 'literal' && namesOne(node.object, depth + 1);
  return false;
}

const literalsOf = new WeakMap<Node, Set<string>>();

/**
 * Whether a value an expression computed from a secret is one to learn: not a yes or no, nor
 * nothing, nor one of the expression's own literals (`secrets.REGION || 'eu-west-1'` gives the
 * default, which is no secret; a secret it gives is learnt as itself).
 */
export function worthLearning(node: Node, value: Value): boolean {
  if (value === null || value === undefined || typeof value === 'boolean') return false;
  let literals = literalsOf.get(node);
  if (!literals) literalsOf.set(node, (literals = new Set(literalTexts(node))));
  return typeof value !== 'string' || !literals.has(value);
}

function literalTexts(node: Node): string[] {
  if (node.kind === 'literal') return node.value === null ? [] : [String(node.value)];
  // What `!` gives is a yes or no, never learnt: its operand's literals are not the expression's to give.
  return node.kind === 'not' ? [] : children(node).flatMap(literalTexts);
}
