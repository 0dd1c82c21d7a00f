// Loading a pipeline: YAML with positions -> schema -> step inputs -> semantic rules -> the
// normalised pipeline, or every problem at once (PipelineInvalid, exit 2). No I/O here.
import { callsStatus, compileCondition, compiledReferences, compileString, compileValue, conditionText, parseExpression, type Expression } from '../expr/index.ts';
import { insecureHttpError } from '../api/insecure-http.ts';
import { serverUrlProblem } from '../api/server-url.ts';
import { UsageError } from '../errors.ts';
import { parseDuration } from '../duration.ts';
import { parseSize } from '../size.ts';
import { inputSchema, STEP_TYPES } from '../steps/registry.ts';
import { resolved, type StepType, type TargetDef } from '../steps/types.ts';
import type { z } from 'zod';
import { didYouMean, PipelineInvalid, type Diagnostic } from './diagnostics.ts';
import { issueDiagnostics } from './issues.ts';
import type { Pipeline, ServerDef, Step, TargetSpec } from './model.ts';
import { checkString, checkValue, type RefScope, type RefWorld } from './references-check.ts';
import { includeInventories } from './include.ts';
import { keysAt } from './issues.ts';
import { lenientCheck, PipelineFileSchema, StepSchema, type PipelineFile } from './schema.ts';
import { locate, parseYaml, type Path, type YamlSource } from './yaml-doc.ts';

export const MAX_FILE_BYTES = 1024 * 1024;
export const DEFAULT_SERVER = 'default';

export interface LoadOptions {
  file: string;
  text: string;
  env: Readonly<Record<string, string | undefined>>;
  /** --var NAME=VALUE overrides. */
  vars?: Readonly<Record<string, unknown>>;
  /** run --emulator: every server is the embedded emulator. */
  emulator?: boolean;
  /**
   * Check what the environment must give (every secrets.X and env.X is set; a server from
   * ENGINE_URL): true by default, as run and plan need it before the first call. `validate`
   * checks a file without it, so it runs where secrets are not given (a pull request).
   */
  checkEnv?: boolean;
  /** Reads an inventory named by `include:` (the edge resolves it next to the pipeline file). */
  readInclude?: (path: string) => string;
  /** Read plain files with the fast YAML parser (yaml-doc.ts); true by default. */
  fastYaml?: boolean;
}

export interface LoadResult {
  pipeline: Pipeline;
  warnings: Diagnostic[];
}

const at = (source: YamlSource, path: Path, message: string, hint?: string, key = false): Diagnostic => ({
  file: source.file,
  ...locate(source, path, { key }),
  message,
  hint,
});

function fail(file: string, message: string, hint?: string, text?: string): never {
  throw new PipelineInvalid([{ file, line: 1, col: 1, message, hint }], text);
}

type RawStep = PipelineFile['steps'][number];

/** The server each step calls, and problems with the choice. */
function serverChoice(source: YamlSource, data: PipelineFile, options: LoadOptions) {
  const declared = Object.keys(data.servers ?? {});
  const names = declared.length > 0 ? declared : options.env.ENGINE_URL || options.emulator || options.checkEnv === false ? [DEFAULT_SERVER] : [];
  const problems: Diagnostic[] = [];
  const defaultName = data.defaults?.server;
  if (defaultName !== undefined && !names.includes(defaultName)) {
    const guess = didYouMean(defaultName, names);
    problems.push(at(source, ['defaults', 'server'], `unknown server "${defaultName}"`, guess ? `did you mean "${guess}"?` : `servers: ${names.join(', ') || 'none'}`));
  }
  const serverOf = (step: RawStep, index: number): string | undefined => {
    if (!STEP_TYPES.get(step.uses)?.needsServer) return undefined;
    const name = step.server ?? defaultName ?? (names.length === 1 ? names[0] : undefined);
    if (typeof step.server === 'string' && step.server.includes('${{')) {
      // A server chosen by an expression (a matrix over sites): each matrix value must name one.
      const key = /^\s*\$\{\{\s*matrix\.([A-Za-z_][\w-]*)\s*\}\}\s*$/.exec(step.server)?.[1];
      const values = key !== undefined ? step.matrix?.[key] ?? [] : [];
      values.forEach((value, i) => {
        if (names.includes(String(value))) return;
        const guess = didYouMean(String(value), names);
        problems.push(at(source, ['steps', index, 'matrix', key!, i], `matrix value "${String(value)}" names no server (server: ${String(step.server).trim()})`, guess ? `did you mean "${guess}"?` : `servers: ${names.join(', ') || 'none'}`));
      });
    } else if (step.server !== undefined && !names.includes(step.server)) {
      const guess = didYouMean(step.server, names);
      problems.push(at(source, ['steps', index, 'server'], `unknown server "${step.server}"`, guess ? `did you mean "${guess}"?` : `servers: ${names.join(', ') || 'none'}`));
    } else if (name === undefined && !problems.some((p) => p.message === 'no server to call' || p.message.startsWith('which server?'))) {
      problems.push(
        at(source, ['steps', index, 'uses'], names.length === 0 ? 'no server to call' : `which server? there are ${names.length}: ${names.join(', ')}`,
          names.length === 0 ? 'add a servers: block, set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or run with --emulator' : 'set server: on the step or defaults.server'),
      );
    }
    return name;
  };
  return { names, serverOf, problems };
}

/**
 * Inputs written beside `with:` instead of under it (`with:` empty, then `fail-on:` at the step's
 * column): one message per input, at its line, saying to indent it; not "with is not a mapping"
 * and "unknown key".
 */
function misplacedInputs(source: YamlSource, data: unknown, problems: Diagnostic[]): Diagnostic[] {
  const steps = Array.isArray((data as { steps?: unknown }).steps) ? ((data as { steps: unknown[] }).steps) : [];
  let out = problems;
  steps.forEach((raw, index) => {
    const step = raw as Record<string, unknown> | null;
    const type = step && typeof step === 'object' ? STEP_TYPES.get(String(step.uses)) : undefined;
    if (!type || (step!.with !== undefined && step!.with !== null)) return;
    const inputs = keysAt(inputSchema(type, lenientCheck), []);
    const misplaced = Object.keys(step!).filter((k) => !Object.hasOwn(StepSchema.shape, k) && inputs.includes(k));
    if (misplaced.length === 0) return;
    out = out.filter((d) => !misplaced.some((k) => d.message.startsWith(`unknown key "${k}"`)) && !d.message.startsWith(`steps[${index}].with: expected a mapping`));
    for (const k of misplaced) {
      out.push(at(source, ['steps', index, k], `\`${k}\` looks like an input of \`with:\`; indent it under \`with:\``, `${type.uses} takes it as an input: write it two spaces deeper than \`with:\``, true));
    }
  });
  return out;
}

/**
 * An input that is exactly `${{ vars.NAME }}` of a var the file (or --var) fixes: its value is
 * checked now, against the input's type, and located at the var, not at run time.
 */
function varInputProblems(source: YamlSource, step: RawStep, index: number, fileVars: Record<string, unknown>, options: LoadOptions): Diagnostic[] {
  const type = STEP_TYPES.get(step.uses);
  const shape = type ? (inputSchema(type, resolved) as unknown as { shape?: Record<string, z.ZodType> }).shape : undefined;
  if (!type || !shape) return [];
  const out: Diagnostic[] = [];
  for (const [input, raw] of Object.entries(step.with ?? {})) {
    const name = typeof raw === 'string' ? /^\s*\$\{\{\s*vars\.([A-Za-z_][\w-]*)\s*\}\}\s*$/.exec(raw)?.[1] : undefined;
    if (!name || !shape[input]) continue;
    const fromFlag = Object.hasOwn(options.vars ?? {}, name);
    const value = fromFlag ? options.vars![name] : Object.hasOwn(fileVars, name) ? fileVars[name] : undefined;
    if (value === undefined || JSON.stringify(value).includes('${{')) continue;
    const parsed = shape[input]!.safeParse(value, { reportInput: true });
    if (parsed.success) continue;
    const where = `vars.${name} is ${input} of step ${index + 1} (${step.uses})`;
    if (fromFlag) {
      out.push(at(source, ['steps', index, 'with', input], `${where}, given by --var: ${parsed.error.issues[0]?.message ?? 'not valid'}`));
      continue;
    }
    for (const d of issueDiagnostics(source, parsed.error.issues, ['vars', name], shape[input]!)) out.push({ ...d, message: `${d.message.replace(/^vars\.[\w-]+(\[\d+\])?: /, '')} (${where})` });
  }
  return out;
}

function credentialProblems(source: YamlSource, path: Path, target: Partial<TargetDef>): Diagnostic[] {
  if (target.token !== undefined || (target.username !== undefined && target.password !== undefined)) return [];
  const missing = target.username !== undefined ? 'password' : target.password !== undefined ? 'username' : 'token';
  return [at(source, path, `target needs a token, or both a username and a password (missing ${missing})`, 'the API requires targetAuthToken, or targetUserName and targetPassword')];
}

const SUCCESS = compileCondition('success()');

/** A step's `if` compiled: success() unless it calls a status function itself (validated before). */
function conditionOf(raw: string | boolean | undefined): Expression {
  if (raw === undefined || raw === true) return SUCCESS;
  if (raw === false) return compileCondition('false');
  const text = conditionText(raw).text.trim();
  return callsStatus(parseExpression(text)) ? compileCondition(text) : compileCondition(`success() && (${text})`);
}

/** A step's inputs compiled; the inputs its type takes as conditions become Expressions. */
function compileInputs(type: StepType | undefined, raw: Record<string, unknown>): Record<string, unknown> {
  const inputs = compileValue(raw) as Record<string, unknown>;
  for (const name of type?.conditions ?? []) {
    const value = raw[name];
    if (typeof value === 'string') inputs[name] = compileCondition(conditionText(value).text);
  }
  return inputs;
}

function defaultName(step: RawStep): string {
  const type = STEP_TYPES.get(step.uses);
  const target = step.with?.target;
  const suffix = typeof target === 'string' && !target.includes('${{') ? ` ${target}` : '';
  return `${type?.summary ?? step.uses}${suffix}`;
}

export function loadPipeline(options: LoadOptions): LoadResult {
  const { file } = options;
  if (Buffer.byteLength(options.text) > MAX_FILE_BYTES) {
    fail(file, `the file is ${Buffer.byteLength(options.text)} bytes; pipelines are limited to ${MAX_FILE_BYTES} bytes (1 MiB)`, 'split it, or move data into vars files');
  }
  const text = options.text.replace(/^\uFEFF/, '');
  if (text.replace(/#.*$/gm, '').trim() === '') fail(file, 'the file is empty', 'a pipeline needs at least `version: 1` and `steps:`', text);

  const parsed = parseYaml(file, text, { fast: options.fastYaml !== false });
  try {
    return loadParsed(parsed, options, text);
  } catch (error) {
    // A file the fast parser read is refused only as `yaml` reads it: its reading is the
    // reference, and the positions come from it anyway (yaml-doc.ts).
    if (!parsed.fast || !(error instanceof PipelineInvalid)) throw error;
    return loadParsed(parseYaml(file, text, { fast: false }), options, text);
  }
}

function loadParsed({ source, data: own, diagnostics }: ReturnType<typeof parseYaml>, options: LoadOptions, text: string): LoadResult {
  const { file } = options;
  if (diagnostics.length > 0) throw new PipelineInvalid(diagnostics, text);
  if (!own || typeof own !== 'object' || Array.isArray(own)) fail(file, 'a pipeline file is a mapping with version: 1 and steps:', undefined, text);

  // Inventories first: what they define is checked in their own files, and merged.
  const included = includeInventories(source, own as Record<string, unknown>, options.readInclude);
  const data = included.data;
  const problems: Diagnostic[] = [...included.problems];
  const parsed = PipelineFileSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) problems.push(...misplacedInputs(source, data, issueDiagnostics(source, parsed.error.issues, [], PipelineFileSchema)));

  // Step inputs, per step type, even when other parts of the file are wrong.
  const rawSteps = Array.isArray((data as { steps?: unknown }).steps) ? ((data as { steps: unknown[] }).steps) : [];
  rawSteps.forEach((raw, index) => {
    const step = raw as Partial<RawStep> | null;
    const type = step && typeof step === 'object' ? STEP_TYPES.get(String(step.uses)) : undefined;
    if (!type || (step!.with !== undefined && (typeof step!.with !== 'object' || step!.with === null || Array.isArray(step!.with)))) return;
    const schema = inputSchema(type, lenientCheck);
    const result = schema.safeParse(step!.with ?? {}, { reportInput: true });
    if (!result.success) problems.push(...issueDiagnostics(source, result.error.issues, ['steps', index, 'with'], schema, `the inputs of ${type.uses}`));
  });
  // Semantic rules: run on what parsed; when the schema failed, on the raw data as far as it fits.
  // vars come from the YAML's own data: zod's record output assigns keys one by one, which would
  // turn a `__proto__` var into the object's prototype instead of a plain key.
  const rawVars = (data as { vars?: Record<string, unknown> }).vars;
  const file$ = (parsed.success ? { ...parsed.data, vars: rawVars } : data) as PipelineFile;
  try {
    problems.push(...semanticProblems(source, file$, options, included.origins));
  } catch (error) {
    if (parsed.success || !(error instanceof TypeError)) throw error;
  }
  if (problems.length > 0) throw new PipelineInvalid(sorted(problems, file), text, included.texts);
  const stepServers = serverChoice(source, file$, options);
  return { pipeline: normalise(source, file$, file$.steps.map(stepServers.serverOf), options), warnings: [] };
}

function semanticProblems(source: YamlSource, file$: PipelineFile, options: LoadOptions, origins: ReadonlyMap<string, YamlSource> = new Map()): Diagnostic[] {
  const problems: Diagnostic[] = [];
  /** The file a server, target or var is defined in: the pipeline, or an inventory it includes. */
  const src = (kind: 'servers' | 'targets' | 'vars', name: string) => origins.get(`${kind}.${name}`) ?? source;
  if (!Array.isArray(file$.steps)) return problems;
  const ids = new Map<string, { index: number; uses: string; matrix: boolean }>();
  file$.steps.forEach((s, index) => {
    if (s.id === undefined) return;
    if (ids.has(s.id)) problems.push(at(source, ['steps', index, 'id'], `duplicate step id "${s.id}"`, `step ${ids.get(s.id)!.index + 1} has it too; ids are unique`));
    else ids.set(s.id, { index, uses: s.uses, matrix: s.matrix !== undefined });
  });
  const { serverOf, problems: serverProblems } = serverChoice(source, file$, options);
  file$.steps.forEach(serverOf);
  problems.push(...serverProblems);

  const targets = file$.targets ?? {};
  for (const [name, target] of Object.entries(targets)) problems.push(...credentialProblems(src('targets', name), ['targets', name], target));
  for (const [name, s] of Object.entries(file$.servers ?? {})) {
    if (typeof s?.url !== 'string' || s.url.includes('${{')) continue;
    const problem = serverUrlProblem(s.url);
    if (problem) problems.push(at(src('servers', name), ['servers', name, 'url'], `the URL ${problem}`, 'give the base_url of the API, e.g. https://erp.example.com'));
  }
  if (!options.emulator) {
    for (const [name, s] of Object.entries(file$.servers ?? {})) {
      if (typeof s?.url !== 'string' || s.url.includes('${{') || serverUrlProblem(s.url)) continue;
      const refused = insecureHttpError({
        url: s.url,
        credentials: s.username !== undefined,
        allowInsecureHttp: s['allow-insecure-http'] === true,
        where: `server "${name}"`,
        allowWith: 'set allow-insecure-http: true on the server',
      });
      if (refused) problems.push(at(src('servers', name), ['servers', name, 'url'], refused.message, refused.hint));
    }
  }

  const world: RefWorld = {
    env: options.env,
    vars: new Set([...Object.keys(file$.vars ?? {}), ...Object.keys(options.vars ?? {})]),
    targets: new Set(Object.keys(targets)),
    steps: ids,
  };
  const base = new Set(['env', 'secrets', 'vars', 'pipeline']);
  const skipEnv = options.checkEnv === false;
  problems.push(...checkValue(source, ['name'], file$.name, { allowed: new Set(['env', 'vars']) }, world));
  // A var reads env, secrets and the vars before it.
  const earlier = new Set<string>(Object.keys(options.vars ?? {}));
  for (const [name, value] of Object.entries(file$.vars ?? {})) {
    problems.push(...checkValue(src('vars', name), ['vars', name], value, { allowed: new Set(['env', 'secrets', 'vars']), skipEnv }, { ...world, vars: earlier, allVars: world.vars }));
    earlier.add(name);
  }
  for (const [name, s] of Object.entries(file$.servers ?? {})) problems.push(...checkValue(src('servers', name), ['servers', name], s, { allowed: base, skipEnv: skipEnv || options.emulator === true }, world));
  for (const [name, t] of Object.entries(file$.targets ?? {})) problems.push(...checkValue(src('targets', name), ['targets', name], t, { allowed: base, skipEnv }, world));
  file$.steps.forEach((s, index) => {
    const scope: RefScope = {
      skipEnv,
      allowed: new Set([...base, 'steps', 'targets', ...(s.matrix ? ['matrix'] : [])]),
      stepIndex: index,
      matrixKeys: Object.keys(s.matrix ?? {}),
    };
    const conditions = new Set(STEP_TYPES.get(s.uses)?.conditions ?? []);
    for (const [key, value] of Object.entries(s.with ?? {})) {
      if (!conditions.has(key)) problems.push(...checkValue(source, ['steps', index, 'with', key], value, scope, world));
    }
    problems.push(...checkValue(source, ['steps', index, 'name'], s.name, scope, world));
    if (typeof s.server === 'string') problems.push(...checkValue(source, ['steps', index, 'server'], s.server, { ...scope, allowed: new Set(['env', 'vars', ...(s.matrix ? ['matrix'] : [])]) }, world));
    if (typeof s.if === 'string') problems.push(...checkString(source, ['steps', index, 'if'], s.if, scope, world, true));
    for (const name of STEP_TYPES.get(s.uses)?.conditions ?? []) {
      const value = s.with?.[name];
      if (typeof value === 'string') problems.push(...checkString(source, ['steps', index, 'with', name], value, scope, world, true));
    }
    problems.push(...varInputProblems(source, s, index, file$.vars ?? {}, options));
    const target = s.with?.target;
    if (typeof target === 'string' && !target.includes('${{') && !Object.hasOwn(targets, target) && (s.uses === 'update/system' || s.uses === 'update/vfs')) {
      const guess = didYouMean(target, Object.keys(targets));
      problems.push(at(source, ['steps', index, 'with', 'target'], `unknown target "${target}"`, guess ? `did you mean "${guess}"?` : `targets: ${Object.keys(targets).join(', ') || 'none; define them under targets:'}`));
    }
    if (target && typeof target === 'object' && !Array.isArray(target)) problems.push(...credentialProblems(source, ['steps', index, 'with', 'target'], target as Partial<TargetDef>));
    const matrixTarget = typeof target === 'string' ? /^\$\{\{\s*matrix\.([A-Za-z_][\w-]*)\s*\}\}$/.exec(target.trim()) : null;
    for (const value of matrixTarget && s.matrix?.[matrixTarget[1]!] ? s.matrix[matrixTarget[1]!]! : []) {
      if (!Object.hasOwn(targets, String(value))) {
        const values = s.matrix![matrixTarget![1]!]!;
        problems.push(at(source, ['steps', index, 'matrix', matrixTarget![1]!, values.indexOf(value)], `unknown target "${String(value)}" in the matrix`, `targets: ${Object.keys(targets).join(', ') || 'none'}`));
      }
    }
  });
  return problems;
}

function sorted(list: Diagnostic[], file: string): Diagnostic[] {
  const seen = new Set<string>();
  return list
    .filter((d) => {
      const key = `${d.file}:${d.line}:${d.col}:${d.message}`;
      return seen.has(key) ? false : (seen.add(key), true);
    })
    // The pipeline's own findings first, then each included file's, each in line order.
    .sort((a, b) => Number(a.file !== file) - Number(b.file !== file) || a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
}

/** A --var (or the action's vars input) the file neither declares nor reads is a typo. */
function checkVarOverrides(data: PipelineFile, compiled: unknown, options: LoadOptions): void {
  const declared = Object.keys(data.vars ?? {});
  const read = new Set(compiledReferences(compiled).filter((r) => r.path[0] === 'vars' && r.path[1] !== undefined).map((r) => r.path[1]!));
  for (const name of Object.keys(options.vars ?? {})) {
    if (declared.includes(name) || read.has(name)) continue;
    const known = [...new Set([...declared, ...read])];
    const guess = didYouMean(name, known);
    throw new UsageError('BAD_VAR', `var "${name}" (--var or the vars input): the pipeline neither declares nor reads it`, {
      hint: guess ? `did you mean "${guess}"?` : known.length ? `its vars: ${known.join(', ')}` : 'the pipeline has no vars',
    });
  }
}

function normalise(source: YamlSource, data: PipelineFile, stepServers: (string | undefined)[], options: LoadOptions): Pipeline {
  const servers: Record<string, ServerDef> = Object.create(null);
  for (const [name, s] of Object.entries(data.servers ?? {})) {
    const text = (v: string | undefined) => (v === undefined ? undefined : compileString(v));
    const flag = (v: string | boolean | undefined) => (typeof v === 'string' ? compileString(v) : v);
    servers[name] = { name, url: compileString(s.url), username: text(s.username), password: text(s.password), timeoutMs: s.timeout ? parseDuration(s.timeout) : undefined, maxResponseBytes: s['max-response-size'] === undefined ? undefined : parseSize(s['max-response-size']), caFile: text(s['ca-file']), insecureSkipTlsVerify: flag(s['insecure-skip-tls-verify']), allowInsecureHttp: flag(s['allow-insecure-http']) };
  }
  // The environment's server: its values are data, as every value from outside the file.
  if (Object.keys(servers).length === 0 && (options.env.ENGINE_URL || options.emulator || options.checkEnv === false)) {
    servers[DEFAULT_SERVER] = {
      name: DEFAULT_SERVER,
      url: options.env.ENGINE_URL ?? '',
      username: options.env.ENGINE_USERNAME,
      password: options.env.ENGINE_PASSWORD,
      allowInsecureHttp: options.env.ENGINE_ALLOW_INSECURE_HTTP === 'true',
    };
  }
  // File vars are compiled; --var values are data.
  const vars: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(data.vars ?? {})) Object.defineProperty(vars, k, { value: compileValue(v), enumerable: true, writable: true });
  for (const [k, v] of Object.entries(options.vars ?? {})) Object.defineProperty(vars, k, { value: v, enumerable: true, writable: true });
  const targets: Record<string, TargetSpec> = Object.create(null);
  for (const [name, t] of Object.entries(data.targets ?? {})) targets[name] = compileValue(t) as TargetSpec;
  const defaults = data.defaults ?? {};
  const steps: Step[] = data.steps.map((s, index) => {
    const retry = s.retry ?? defaults.retry;
    const timeout = s.timeout ?? defaults.timeout;
    const step = {
      index,
      id: s.id,
      name: s.name === undefined ? defaultName(s) : compileString(s.name),
      uses: s.uses,
      with: compileInputs(STEP_TYPES.get(s.uses), (s.with ?? {}) as Record<string, unknown>),
      if: conditionOf(s.if),
      continueOnError: s['continue-on-error'] ?? defaults['continue-on-error'] ?? false,
      timeoutMs: timeout ? parseDuration(timeout) : undefined,
      retry: retry ? { attempts: retry.attempts, delayMs: retry.delay ? parseDuration(retry.delay)! : 10_000, backoff: retry.backoff ?? 2 } : undefined,
      matrix: s.matrix,
      maxParallel: s['max-parallel'] ?? 1,
      failFast: s['fail-fast'] ?? true,
      server: stepServers[index] === undefined ? undefined : compileString(stepServers[index]!),
    } as Omit<Step, 'position'> as Step;
    // Asked for only when a step's line is shown (an annotation): locating needs the positioned
    // YAML Document, which a large valid file otherwise never builds (yaml-doc.ts).
    let position: Step['position'] | undefined;
    Object.defineProperty(step, 'position', { enumerable: true, get: () => (position ??= locate(source, ['steps', index])) });
    return step;
  });
  const name = data.name === undefined ? options.file.replace(/^.*[\\/]/, '').replace(/\.ya?ml$/, '') : compileString(data.name);
  const compiled = [name, vars, servers, targets, steps.map((s) => [s.name, s.with, s.if])];
  checkVarOverrides(data, compiled, options);
  const secrets = new Set<string>();
  for (const ref of compiledReferences(compiled)) if (ref.path[0] === 'secrets' && ref.path[1] !== undefined) secrets.add(ref.path[1]);
  return { file: options.file, name, vars, secrets: [...secrets], servers, targets, steps };
}
