// The semantic rules of expressions: every steps.X, vars.X, targets.X, matrix.X reference resolves (a step reads
// only steps before it), and every secrets.X and env.X is in the environment (unsetSecret: a dry run stands in).
import { at } from './located.ts';
import { conditionText, references, scanTemplate, parseExpression, ExprError, type Node } from '../expr/index.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { locate, type Path, type YamlSource } from './yaml-doc.ts';
import { instanceProblem } from './instance-references.ts';
import type { WaysOn } from '../ways-on.ts';

export interface RefScope {
  /** Contexts usable here. */
  allowed: ReadonlySet<string>;
  /** Index of the step the value belongs to. */
  stepIndex?: number | undefined;
  matrixKeys?: readonly string[] | undefined;
  /** Skip presence checks of env and secrets (servers under --emulator). */
  skipEnv?: boolean;
}

export interface RefStep {
  index: number;
  uses: string;
  matrix: readonly string[] | undefined;
}

export interface RefWorld {
  env: Readonly<Record<string, string | undefined>>;
  vars: ReadonlySet<string>;
  /** Every var of the file, where `vars` holds only those a value may read (a var reads earlier vars). */
  allVars?: ReadonlySet<string>;
  targets: ReadonlySet<string>;
  /** Step ids with their index, type and matrix keys (undefined: no matrix). */
  steps: ReadonlyMap<string, RefStep>;
  ways: Pick<WaysOn, 'giveVar' | 'setSecret'>; // giving a var, setting a secret: in the words of the surface in use
}

const EXPRESSION_HINT =
  "an expression reads contexts (vars.x, steps.id.outputs.y) with the operators == != < <= > >= && || ! and functions such as contains() and format(); strings in 'single quotes' (docs/pipeline-format.md, Expressions)";
const TARGET_FIELDS = ['server', 'database', 'token', 'username', 'password'];
const CONTEXT_HELP: Record<string, string> = {
  steps: 'steps.* can be read by steps only',
  matrix: 'matrix.* can be read by a step with a matrix only',
  targets: 'targets.* can be read by steps only',
};

/**
 * Environment variables that hold a credential: the CI systems' own tokens, and any name that
 * says it is one, in a word of it or a whole (TOKEN, SECRET, PASSWORD, CREDENTIAL, JWT anywhere;
 * KEY, PAT, PASS, PWD, AUTH, DSN, COOKIE as a word: DEPLOY_KEY, GH_PAT, DB_PASS,
 * DOCKER_AUTH_CONFIG; a database URL or connection string). Read through env.* they would not be
 * masked: they are read as secrets.*.
 */
const CREDENTIAL_ENV =
  /TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|API_?KEY|PRIVATE_?KEY|CREDENTIAL|JWT|(^|[^A-Z0-9])(KEYS?|PAT|PASS|PWD|AUTH|DSN|COOKIE)([^A-Z0-9]|$)|(DATABASE|DB)_?UR[LI]|CONNECTION_?STRING/i;

function checkReference(
  path: string[],
  scope: RefScope,
  world: RefWorld,
): Pick<Diagnostic, 'message' | 'hint' | 'unsetSecret'> | undefined {
  const [context, name, field, output] = path;
  if (!scope.allowed.has(context!))
    return { message: `${context}.* cannot be used here`, hint: CONTEXT_HELP[context!] };
  // env.* and secrets.* (the filter over every value) are the whole context, as a computed name is.
  if (name === undefined || (name === '*' && (context === 'env' || context === 'secrets'))) {
    if (context === 'env') {
      return {
        message: 'environment names are static: write env.NAME',
        hint: "the whole environment (toJSON(env)) or a computed name holds the CI system's tokens, which could not be masked; read each value by name, a credential as secrets.NAME",
      };
    }
    if (context !== 'secrets') return undefined;
    return {
      message: "secret names are static: write secrets.NAME or secrets['NAME']",
      hint: 'a computed name (secrets[vars.x]) or the whole secrets context cannot be known before the run, so it could not be masked',
    };
  }
  if (context === 'env' && CREDENTIAL_ENV.test(name)) {
    return {
      message: `env.${name} holds a credential: read it as secrets.${name}`,
      hint: 'a value read through env.* is not masked; through secrets.* it is masked in every log, report and output',
    };
  }
  switch (context) {
    case 'env':
    case 'secrets':
      if (scope.skipEnv || world.env[name] !== undefined) return undefined;
      return {
        message: `${context}.${name} is not set: no environment variable ${name}`,
        ...(context === 'secrets'
          ? { hint: world.ways.setSecret(name), unsetSecret: name }
          : { hint: `set ${name} in the environment` }),
      };
    case 'vars': {
      if (world.vars.has(name)) return undefined;
      if (world.allVars?.has(name))
        return {
          message: `var "${name}" is defined after this one`,
          hint: 'a var reads only the vars above it: move it up',
        };
      const guess = didYouMean(name, world.vars);
      return {
        message: `unknown var "${name}"`,
        hint: guess ? `did you mean "${guess}"?` : `define it under vars: or ${world.ways.giveVar('NAME=VALUE')}`,
      };
    }
    case 'targets': {
      if (!world.targets.has(name)) {
        const guess = didYouMean(name, world.targets);
        return {
          message: `unknown target "${name}"`,
          hint: guess ? `did you mean "${guess}"?` : 'define it under targets:',
        };
      }
      if (field !== undefined && !TARGET_FIELDS.includes(field))
        return { message: `targets.${name}.${field}: a target has ${TARGET_FIELDS.join(', ')}` };
      return undefined;
    }
    case 'matrix': {
      const keys = scope.matrixKeys ?? [];
      if (keys.includes(name)) return undefined;
      return {
        message: keys.length
          ? `matrix.${name}: this step's matrix has ${keys.join(', ')}`
          : `matrix.${name}: this step has no matrix`,
        hint: CONTEXT_HELP.matrix,
      };
    }
    case 'pipeline':
      return name === 'name' ? undefined : { message: `pipeline.${name}: the pipeline context has name only` };
    case 'steps': {
      const step = world.steps.get(name);
      if (!step) {
        const earlier = [...world.steps].filter(([, s]) => s.index < (scope.stepIndex ?? 0)).map(([id]) => id);
        const guess = didYouMean(name, earlier);
        return {
          message: `unknown step "${name}"`,
          hint: guess
            ? `did you mean "${guess}"?`
            : earlier.length
              ? `earlier steps with an id: ${earlier.join(', ')}`
              : 'give the step an id: to read its outputs',
        };
      }
      if (step.index >= (scope.stepIndex ?? 0))
        return {
          message: `step "${name}" runs ${step.index === scope.stepIndex ? 'as this step' : 'after this one'}`,
          hint: 'a step can read only the steps before it',
        };
      if (field === undefined) return undefined;
      if (field === 'instances' || field === 'failures')
        return step.matrix
          ? instanceProblem(name, field, path.slice(3), step)
          : { message: `steps.${name}.${field}: only a matrix step has instances`, hint: `read steps.${name}.outputs` };
      if (field !== 'outputs' && field !== 'outcome')
        return {
          message: `steps.${name}.${field}: a step has outputs and outcome${step.matrix ? ', and instances and failures (a matrix step)' : ''}`,
        };
      if (field === 'outputs' && step.matrix)
        return {
          message: `steps.${name}.outputs: a matrix step's instances have outputs each`,
          hint: `read steps.${name}.instances: each with its matrix values, outcome and outputs`,
        };
      const outputs = STEP_TYPES.get(step.uses)?.outputs ?? [];
      if (field === 'outputs' && output !== undefined && !outputs.includes(output)) {
        const guess = didYouMean(output, outputs);
        return {
          message: `steps.${name}.outputs.${output}: ${step.uses} has no output ${output}`,
          hint: guess ? `did you mean "${guess}"?` : `its outputs: ${outputs.join(', ') || 'none'}`,
        };
      }
      return undefined;
    }
  }
  return undefined;
}

function exprDiagnostics(
  source: YamlSource,
  path: Path,
  nodes: { node: Node; offset: number }[],
  scope: RefScope,
  world: RefWorld,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { node, offset } of nodes) {
    for (const ref of references(node)) {
      const problem = checkReference(ref.path, scope, world);
      if (!problem) continue;
      const pos = locate(source, path, { offset: offset + ref.pos });
      out.push({ file: source.file, ...pos, ...problem });
    }
  }
  return out;
}

/**
 * Diagnostics of one string value: syntax errors at their column, then references. A `condition`
 * (`if`, assert's `that`) is one expression, bare or wholly in ${{ }}.
 */
export function checkString(
  source: YamlSource,
  path: Path,
  value: string,
  scope: RefScope,
  world: RefWorld,
  condition = false,
): Diagnostic[] {
  try {
    if (condition) {
      const { text, offset } = conditionText(value);
      try {
        return exprDiagnostics(source, path, [{ node: parseExpression(text), offset }], scope, world);
      } catch (error) {
        if (error instanceof ExprError) throw new ExprError(error.message, offset + error.offset);
        throw error;
      }
    }
    const nodes = scanTemplate(value).flatMap((s) => ('node' in s ? [{ node: s.node, offset: s.offset }] : []));
    return exprDiagnostics(source, path, nodes, scope, world);
  } catch (error) {
    if (!(error instanceof ExprError)) throw error;
    const pos = locate(source, path, { offset: error.offset });
    return [{ file: source.file, ...pos, message: `invalid expression: ${error.message}`, hint: EXPRESSION_HINT }];
  }
}

const KEY_EXPRESSION = 'an expression in a key is not evaluated: it would be sent as written';

/** Checks every string inside `value` (walking lists and mappings). */
export function checkValue(
  source: YamlSource,
  path: Path,
  value: unknown,
  scope: RefScope,
  world: RefWorld,
): Diagnostic[] {
  if (typeof value === 'string') return value.includes('${{') ? checkString(source, path, value, scope, world) : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => checkValue(source, [...path, i], v, scope, world));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [
      // A key is never evaluated: an expression in one would be sent as its text.
      ...(k.includes('${{')
        ? [at(source, [...path, k], KEY_EXPRESSION, 'write the key as text; put what varies in the value', true)]
        : []),
      ...checkValue(source, [...path, k], v, scope, world),
    ]);
  return [];
}
