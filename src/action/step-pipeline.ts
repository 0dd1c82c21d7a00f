// A single-step action as a pipeline model, built from its inputs as values: the inputs become
// the step's inputs, the target and source fields an inline target, url/username/password the
// default server. Nothing is written as YAML or parsed again, so an input is always data: a
// `${{ }}` in a commit message passed to `message` reaches the server as the text it is.
import { defaultServerOf, type DefaultServer } from '../api/server-env.ts';
import { baseUrlProblem } from '../api/base-url.ts';
import { UsageError } from '../errors.ts';
import { compileCondition } from '../expr/index.ts';
import type { Diagnostic } from '../pipeline/diagnostics.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import { typeMismatch } from '../pipeline/type-words.ts';
import { DEFAULT_SERVER } from '../pipeline/load.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { inputSchema, STEP_TYPES } from '../steps/registry.ts';
import { resolved } from '../steps/types.ts';
import type { Env } from '../runner/scope.ts';
import { RUN_INPUT_NAMES, type ActionDef } from './definitions.ts';
import { booleanInput, listInput, type GetInput } from './inputs.ts';
import { STAND_IN } from '../app/stand-ins.ts';

const LISTS = new Set(['files', 'directories', 'products', 'recipients']);
const CONNECTION = new Set(['server', 'database', 'token', 'username', 'password']);

/** The action's default server: its url, username and password inputs over what ENGINE_* give. */
export function actionServer(get: GetInput, env: Env): DefaultServer {
  const server = defaultServerOf(env);
  return {
    ...server,
    url: get('url').trim() || server.url,
    username: get('username').trim() || server.username,
    password: get('password') || server.password,
  };
}

/**
 * A dry run's inputs (dry-run: true): it sends nothing, so a credential the step needs and is not
 * given stands in (app/stand-ins.ts), as a secret the root action's pipeline reads does: the target's
 * (or a source's) token when it has no credential, its password when it has a user name only.
 * `stoodIn` names them, for the dry run's warning.
 */
export function dryRunInputs(def: ActionDef, get: GetInput): { get: GetInput; stoodIn: string[] } {
  const stoodIn: string[] = [];
  for (const which of ['target', 'source'] as const) {
    const field = (name: string) => `${which}-${name}`;
    if (def.inputs[field('token')] === undefined) continue;
    const given = (name: string) => get(field(name)).trim() !== '';
    // A source is optional: only one that is given needs a credential.
    if (which === 'source' && ![...CONNECTION].some(given)) continue;
    if (given('token') || given('password')) continue;
    stoodIn.push(field(given('username') ? 'password' : 'token'));
  }
  const standIn = new Set(stoodIn);
  return {
    get: (name) => (standIn.has(name) ? STAND_IN : get(name)),
    stoodIn: stoodIn.map((name) => `input ${name}`),
  };
}

/** The input a step-input path comes from: ['target', 'token'] -> target-token. */
function inputName(path: readonly PropertyKey[]): string {
  const [first, second] = path.map(String);
  return (first === 'target' || first === 'source') && second && CONNECTION.has(second)
    ? `${first}-${second}`
    : (first ?? 'inputs');
}

function problem(def: ActionDef, input: string, message: string, hint?: string): Diagnostic {
  return { file: `${def.id} inputs`, line: 1, col: 1, message: `input ${input}: ${message}`, hint };
}

/** The step's inputs from the action's, as values. */
function stepInputs(def: ActionDef, get: GetInput): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const [name, input] of Object.entries(def.inputs)) {
    // The run's inputs (url, dry-run, webhook, journal, store ...) are read as the root action reads them.
    if (RUN_INPUT_NAMES.has(name)) continue;
    const connection = /^(target|source)-(.+)$/.exec(name);
    if (connection && CONNECTION.has(connection[2]!)) {
      const value = get(name).trim();
      if (value !== '') ((inputs[connection[1]!] ??= {}) as Record<string, string>)[connection[2]!] = value;
      continue;
    }
    if (LISTS.has(name)) {
      const list = listInput(get, name);
      if (list !== undefined) inputs[name] = list;
      continue;
    }
    if (input.default === 'false' || input.default === 'true') {
      const value = booleanInput(get, name);
      if (value !== (input.default === 'true')) inputs[name] = value;
      continue;
    }
    const value = get(name).trim();
    if (value !== '') inputs[name] = value;
  }
  return inputs;
}

/** Every problem of the inputs, told by input name. */
function inputProblems(def: ActionDef, inputs: Record<string, unknown>): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const which of ['target', 'source'] as const) {
    const c = inputs[which] as Record<string, string> | undefined;
    if (!c) continue;
    if (!c.server)
      problems.push(
        problem(def, `${which}-server`, `the ${which} server is required`, `set ${which}-server and ${which}-database`),
      );
    if (!c.database)
      problems.push(
        problem(
          def,
          `${which}-database`,
          `the ${which} database is required`,
          `set ${which}-server and ${which}-database`,
        ),
      );
    if (c.token === undefined && (c.username === undefined || c.password === undefined)) {
      const missing = c.username !== undefined ? 'password' : c.password !== undefined ? 'username' : 'token';
      problems.push(
        problem(
          def,
          `${which}-${missing}`,
          `the ${which} needs a token, or both a username and a password`,
          `set ${which}-token, or ${which}-username and ${which}-password`,
        ),
      );
    }
  }
  if (problems.length > 0) return problems;
  const parsed = inputSchema(STEP_TYPES.get(def.uses!)!, resolved).safeParse(inputs, { reportInput: true });
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      problems.push(
        problem(
          def,
          inputName(issue.path),
          // In the pipeline validator's words: what was expected, and what was given.
          issue.code === 'invalid_type' ? typeMismatch(issue.expected, issue.input) : issue.message,
        ),
      );
  return problems;
}

export function stepPipeline(def: ActionDef, get: GetInput, server: DefaultServer): Pipeline {
  const type = STEP_TYPES.get(def.uses!)!;
  const inputs = stepInputs(def, get);
  if (type.targetInput && inputs[type.targetInput] === undefined) {
    throw new UsageError('BAD_INPUT', `${def.id}: target-server and target-database are required`, {
      hint: 'set target-server, target-database and target-token (or target-username and target-password)',
    });
  }
  const problems = inputProblems(def, inputs);
  if (problems.length > 0) throw new PipelineInvalid(problems, undefined);
  if (type.needsServer && !server.url) {
    throw new UsageError('BAD_INPUT', `${def.id}: no server to call`, {
      hint: 'set the url input (with username and password), or ENGINE_URL in the environment',
    });
  }
  const urlProblem = server.url ? baseUrlProblem(server.url) : undefined;
  if (urlProblem)
    throw new UsageError('BAD_INPUT', `input url (or ENGINE_URL): the URL ${urlProblem}`, {
      hint: 'give the base_url of the API, e.g. https://erp.example.com',
    });
  return {
    file: `${def.id} inputs`,
    name: def.name,
    vars: {},
    secrets: [],
    secretVars: new Set(),
    servers: {
      [DEFAULT_SERVER]: { name: DEFAULT_SERVER, ...server, url: server.url ?? '' },
    },
    targets: {},
    steps: [
      {
        index: 0,
        id: def.id,
        name: type.summary,
        uses: type.uses,
        with: inputs,
        if: compileCondition('success()'),
        continueOnError: false,
        timeoutMs: undefined,
        retry: undefined,
        matrix: undefined,
        maxParallel: 1,
        failFast: true,
        server: type.needsServer ? DEFAULT_SERVER : undefined,
        position: { line: 1, col: 1 },
      },
    ],
  };
}
