// The semantic stage of loading: what no schema can say. Ids unique, servers and targets known
// (with did-you-mean), URLs callable, credentials complete, every `${{ }}` reference resolvable
// where it is written, vars the file fixes valid for the inputs reading them.
import type { DefaultServer } from '../api/server-env.ts';
import { insecureHttpError } from '../api/insecure-http.ts';
import { serverUrlProblem } from '../api/server-url.ts';
import { inputSchema, STEP_TYPES } from '../steps/registry.ts';
import { resolved, type TargetDef } from '../steps/types.ts';
import type { z } from 'zod';
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { issueDiagnostics } from './issues.ts';
import { at } from './located.ts';
import { checkString, checkValue, type RefScope, type RefStep, type RefWorld } from './references-check.ts';
import { LOADER_PARSE, type PipelineFile } from './schema.ts';
import type { Reach } from './model.ts';
import { serverChoice } from './servers-check.ts';
import type { Path, YamlSource } from './yaml-doc.ts';

type RawStep = PipelineFile['steps'][number];

export interface SemanticOptions {
  env: Readonly<Record<string, string | undefined>>;
  defaultServer?: DefaultServer | undefined;
  vars?: Readonly<Record<string, unknown>> | undefined;
  emulator?: boolean | undefined;
  checkEnv?: boolean | undefined;
  /** What the selected instances reach; the environment is asked for nothing else. Everything when absent. */
  reach?: Reach | undefined;
}

export function semanticProblems(source: YamlSource, doc: PipelineFile, options: SemanticOptions, origins: ReadonlyMap<string, YamlSource> = new Map()): Diagnostic[] {
  const problems: Diagnostic[] = [];
  /** The file a server, target or var is defined in: the pipeline, or an inventory it includes. */
  const src = (kind: 'servers' | 'targets' | 'vars', name: string) => origins.get(`${kind}.${name}`) ?? source;
  if (!Array.isArray(doc.steps)) return problems;
  const ids = new Map<string, RefStep>();
  doc.steps.forEach((s, index) => {
    if (s.id === undefined) return;
    if (ids.has(s.id)) problems.push(at(source, ['steps', index, 'id'], `duplicate step id "${s.id}"`, `step ${ids.get(s.id)!.index + 1} has it too; ids are unique`));
    else ids.set(s.id, { index, uses: s.uses, matrix: s.matrix ? Object.keys(s.matrix) : undefined });
  });
  const { serverOf, problems: serverProblems } = serverChoice(source, doc, options);
  doc.steps.forEach(serverOf);
  problems.push(...serverProblems);

  const targets = doc.targets ?? {};
  for (const [name, target] of Object.entries(targets)) problems.push(...credentialProblems(src('targets', name), ['targets', name], target));
  for (const [name, s] of Object.entries(doc.servers ?? {})) {
    if (typeof s?.url !== 'string' || s.url.includes('${{')) continue;
    const problem = serverUrlProblem(s.url);
    if (problem) problems.push(at(src('servers', name), ['servers', name, 'url'], `the URL ${problem}`, 'give the base_url of the API, e.g. https://erp.example.com'));
  }
  if (!options.emulator) {
    for (const [name, s] of Object.entries(doc.servers ?? {})) {
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
    vars: new Set([...Object.keys(doc.vars ?? {}), ...Object.keys(options.vars ?? {})]),
    targets: new Set(Object.keys(targets)),
    steps: ids,
  };
  const base = new Set(['env', 'secrets', 'vars', 'pipeline']);
  const skipEnv = options.checkEnv === false;
  const { reach } = options;
  const unreached = (kind: 'servers' | 'targets' | 'vars', name: string) => reach !== undefined && !reach[kind].has(name);
  problems.push(...checkValue(source, ['name'], doc.name, { allowed: new Set(['env', 'vars']) }, world));
  // A var reads env, secrets and the vars before it.
  const earlier = new Set<string>(Object.keys(options.vars ?? {}));
  for (const [name, value] of Object.entries(doc.vars ?? {})) {
    problems.push(...checkValue(src('vars', name), ['vars', name], value, { allowed: new Set(['env', 'secrets', 'vars']), skipEnv: skipEnv || unreached('vars', name) }, { ...world, vars: earlier, allVars: world.vars }));
    earlier.add(name);
  }
  for (const [name, s] of Object.entries(doc.servers ?? {})) problems.push(...checkValue(src('servers', name), ['servers', name], s, { allowed: base, skipEnv: skipEnv || options.emulator === true || unreached('servers', name) }, world));
  for (const [name, t] of Object.entries(doc.targets ?? {})) problems.push(...checkValue(src('targets', name), ['targets', name], t, { allowed: base, skipEnv: skipEnv || unreached('targets', name) }, world));
  doc.steps.forEach((s, index) => {
    const scope: RefScope = {
      skipEnv: skipEnv || (reach !== undefined && !reach.steps.has(index)),
      allowed: new Set([...base, 'steps', 'targets', ...(s.matrix ? ['matrix'] : [])]),
      stepIndex: index,
      matrixKeys: Object.keys(s.matrix ?? {}),
    };
    const type = STEP_TYPES.get(s.uses);
    const conditions = new Set(type?.conditions ?? []);
    for (const [key, value] of Object.entries(s.with ?? {})) {
      if (!conditions.has(key)) problems.push(...checkValue(source, ['steps', index, 'with', key], value, scope, world));
    }
    problems.push(...checkValue(source, ['steps', index, 'name'], s.name, scope, world));
    if (typeof s.server === 'string') problems.push(...checkValue(source, ['steps', index, 'server'], s.server, { ...scope, allowed: new Set(['env', 'vars', ...(s.matrix ? ['matrix'] : [])]) }, world));
    if (typeof s.if === 'string') problems.push(...checkString(source, ['steps', index, 'if'], s.if, scope, world, true));
    for (const name of conditions) {
      const value = s.with?.[name];
      if (typeof value === 'string') problems.push(...checkString(source, ['steps', index, 'with', name], value, scope, world, true));
    }
    problems.push(...varInputProblems(source, s, index, doc.vars ?? {}, options));
    // A target named by the step's target input must exist; one written inline needs credentials.
    const targetInput = type?.targetInput ?? 'target';
    const target = s.with?.[targetInput];
    if (type?.targetInput && typeof target === 'string' && !target.includes('${{') && !Object.hasOwn(targets, target)) {
      const guess = didYouMean(target, Object.keys(targets));
      problems.push(at(source, ['steps', index, 'with', targetInput], `unknown target "${target}"`, guess ? `did you mean "${guess}"?` : `targets: ${Object.keys(targets).join(', ') || 'none; define them under targets:'}`));
    }
    if (target && typeof target === 'object' && !Array.isArray(target)) problems.push(...credentialProblems(source, ['steps', index, 'with', targetInput], target as Partial<TargetDef>));
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

/**
 * An input that is exactly `${{ vars.NAME }}` of a var the file (or --var) fixes: its value is
 * checked now, against the input's type, and located at the var, not at run time.
 */
function varInputProblems(source: YamlSource, step: RawStep, index: number, fileVars: Record<string, unknown>, options: SemanticOptions): Diagnostic[] {
  const type = STEP_TYPES.get(step.uses);
  const fromVars = Object.entries(step.with ?? {}).flatMap(([input, raw]) => {
    const name = typeof raw === 'string' ? /^\s*\$\{\{\s*vars\.([A-Za-z_][\w-]*)\s*\}\}\s*$/.exec(raw)?.[1] : undefined;
    return name ? [[input, name] as const] : [];
  });
  // The step type's schema is built only for a step that has such an input.
  if (!type || fromVars.length === 0) return [];
  const shape = (inputSchema(type, resolved) as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return [];
  const out: Diagnostic[] = [];
  for (const [input, name] of fromVars) {
    if (!shape[input]) continue;
    const fromFlag = Object.hasOwn(options.vars ?? {}, name);
    const value = fromFlag ? options.vars![name] : Object.hasOwn(fileVars, name) ? fileVars[name] : undefined;
    if (value === undefined || JSON.stringify(value).includes('${{')) continue;
    const parsed = shape[input]!.safeParse(value, LOADER_PARSE);
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
