// What a run (or its dry run) knows before its first step: the secrets the file names, its vars
// and name resolved in order, its servers and targets; every secret registered with the masker.
import type { Env } from '../environment.ts';
import {
  ExprError,
  isStatic,
  learnSecretsAhead,
  resolveDeep,
  toText,
  withSecretSink,
  type EvalScope,
  type SecretSink,
} from '../expr/index.ts';
import { UsageError } from '../errors.ts';
import type { Pipeline, Step } from '../pipeline/model.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { TargetDef } from '../steps/types.ts';
import { registerInputSecrets } from './declared-secrets.ts';
import { fileMasker, plainRecord, registerSecretValue } from './file-secrets.ts';
import type { Masker } from './masker.ts';
import { learnServerUrl } from './server-url-secrets.ts';
import { urlPasswords } from '../api/url-logins.ts';

export interface ResolvedServer {
  name: string;
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  timeoutMs?: number | undefined;
  maxResponseBytes?: number | undefined;
  caFile?: string | undefined;
  insecureSkipTlsVerify?: boolean | undefined;
  allowInsecureHttp?: boolean | undefined;
}

export type { Env } from '../environment.ts';

export interface Prepared {
  /** The pipeline's name, resolved and masked. */
  name: string;
  /** env, secrets, vars, pipeline: the contexts that do not change during the run. */
  contexts: Record<string, unknown>;
  servers: Map<string, ResolvedServer>;
  targets: Record<string, TargetDef>;
}

function resolveOrRefuse(value: unknown, scope: EvalScope, where: string): unknown {
  try {
    return resolveDeep(value, scope);
  } catch (error) {
    if (error instanceof ExprError)
      throw new UsageError('EXPRESSION', `${where}: ${error.message}`, { hint: `check the expression of ${where}` });
    throw error;
  }
}

/**
 * What the masker learns: every secret the file holds ('file', a run's), or only those the
 * selection reaches ('reached': the masker with which runs made before the file masker hashed their files,
 * app/legacy-masker.ts).
 */
export type Learn = 'file' | 'reached';

const preparedRuns = new WeakMap<Masker, WeakMap<Env, WeakMap<Pipeline, Prepared>>>();

/**
 * Resolves what the run needs before its first step, once per pipeline, environment and masker:
 * the run prepares what its journal's setup prepared to teach the masker (and verify, too) once.
 */
export function prepareRun(pipeline: Pipeline, env: Env, masker: Masker, learn: Learn = 'file'): Prepared {
  const byEnv = preparedRuns.get(masker) ?? new WeakMap<Env, WeakMap<Pipeline, Prepared>>();
  const byPipeline = byEnv.get(env) ?? new WeakMap<Pipeline, Prepared>();
  preparedRuns.set(masker, byEnv.set(env, byPipeline));
  const prepared = byPipeline.get(pipeline) ?? resolveRun(pipeline, env, masker, learn);
  byPipeline.set(pipeline, prepared);
  return prepared;
}

/** vars resolve in file order (a var may read env, secrets and earlier vars); a var that reads a secret, or a var that does, is a secret too. */
function resolveRun(pipeline: Pipeline, env: Env, masker: Masker, learn: Learn): Prepared {
  // A run masks every secret the file holds: one limited by --only resolves only what it reaches,
  // but a value it shows may hold another site's secret (a --var given another server's literal
  // password). Learnt from the file masker every run makes for its hashes, whose forms and keys
  // it takes as they are: its own secrets, added below, are then found known (a fleet with a
  // login per site: about 20 ms to learn 1,000 logins' forms, against 150-300 ms to make them).
  if (learn === 'file') masker.learnFrom(fileMasker(pipeline, env));
  const secrets = plainRecord(
    pipeline.secrets.flatMap((name): [string, unknown][] => (env[name] === undefined ? [] : [[name, env[name]]])),
  );
  for (const [name, value] of Object.entries(secrets)) masker.add(value as string, `secrets.${name}`);
  const envContext = plainRecord(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  // A URL with a password in it (postgres://app:PASSWORD@db/app), under any name, is shown without it.
  for (const [name, value] of Object.entries(envContext))
    for (const password of urlPasswords(value as string)) masker.add(password, `env.${name}`);

  const vars: Record<string, unknown> = Object.create(null);
  const secretEnv = new Set(pipeline.secrets);
  for (const [name, value] of Object.entries(pipeline.vars)) {
    // A var no selected instance reads is not resolved: it may read another site's secret.
    if (pipeline.reach && !pipeline.reach.vars.has(name)) continue;
    const resolved = isStatic(value)
      ? value
      : resolveOrRefuse(value, { contexts: { env: envContext, secrets, vars } }, `vars.${name}`);
    // A var the file makes of a secret holds one also when --var gives it (pipeline/normalise.ts).
    if (pipeline.secretVars.has(name)) registerSecretValue(resolved, masker, `vars.${name}`);
    Object.defineProperty(vars, name, { value: resolved, enumerable: true, writable: true });
  }
  // From here on, what an expression computes from a secret is learnt as one (expr/secret-sink.ts).
  const sink: SecretSink = {
    vars: pipeline.secretVars,
    env: secretEnv,
    learn: (value, expression) => registerSecretValue(value, masker, `the value of \${{ ${expression} }}`),
    isJsonSecret: (value) => masker.json.holds(value),
    jsonSecretsParsed: 0,
  };
  const named = resolveOrRefuse(pipeline.name, { contexts: withSecretSink({ env: envContext, vars }, sink) }, 'name');
  const name = masker.mask(toText(named));
  const contexts = withSecretSink({ env: envContext, secrets, vars, pipeline: { name } }, sink);
  // A credential written literally in a step (an inline target's token), and a value its name or inputs
  // compute from a secret alone, are known before the first step: no record before that step shows them.
  for (const step of pipeline.steps) {
    const type = STEP_TYPES.get(step.uses);
    if (type && step.with) registerInputSecrets(type, step.with as Record<string, unknown>, masker);
    learnSecretsAhead([step.name, step.with], { contexts });
  }
  return {
    name,
    contexts,
    servers: resolveServers(pipeline, contexts, masker),
    targets: resolveTargets(pipeline, contexts, masker),
  };
}

/** A switch resolved from an expression: true or false, never a silent false for "yes". */
function flag(value: unknown, where: string): boolean {
  if (value === undefined || value === null || value === false || value === 'false' || value === '') return false;
  if (value === true || value === 'true') return true;
  throw new UsageError('BAD_SERVER', `${where}: ${JSON.stringify(value)} is neither true nor false`, {
    hint: `write ${where.split('.').at(-1)}: true or false`,
  });
}

function resolveServers(
  pipeline: Pipeline,
  contexts: Record<string, unknown>,
  masker: Masker,
): Map<string, ResolvedServer> {
  const servers = new Map<string, ResolvedServer>();
  for (const [name, s] of reachedServers(pipeline)) {
    const r = resolveOrRefuse(
      {
        url: s.url,
        username: s.username,
        password: s.password,
        caFile: s.caFile,
        insecure: s.insecureSkipTlsVerify,
        allowHttp: s.allowInsecureHttp,
      },
      { contexts },
      `servers.${name}`,
    ) as Record<string, unknown>;
    const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
    masker.addLogin(str(r.username), str(r.password), `servers.${name}.password`);
    learnServerUrl(str(r.url), masker, `servers.${name}.url`);
    servers.set(name, {
      name,
      url: String(r.url ?? ''),
      username: str(r.username),
      password: str(r.password),
      timeoutMs: s.timeoutMs,
      maxResponseBytes: s.maxResponseBytes,
      caFile: str(r.caFile),
      insecureSkipTlsVerify: flag(r.insecure, `servers.${name}.insecure-skip-tls-verify`),
      allowInsecureHttp: flag(r.allowHttp, `servers.${name}.allow-insecure-http`),
    });
  }
  return servers;
}

/**
 * The servers a run reaches, in the file's order: found by name, not by a walk of every server
 * (a site's run of a sharded fleet reaches one of thousands, and would otherwise cost the fleet's
 * size at each site).
 */
function reachedServers(pipeline: Pipeline): [string, Pipeline['servers'][string]][] {
  const all = pipeline.servers;
  if (!pipeline.reach) return Object.entries(all);
  const order = orderOf(all);
  return [...pipeline.reach.servers]
    .filter((name) => order.has(name))
    .sort((a, b) => order.get(a)! - order.get(b)!)
    .map((name) => [name, all[name]!]);
}

/** Each server's place in the file, once per servers object (the runs of a fleet's sites share it). */
const serverOrders = new WeakMap<object, Map<string, number>>();
function orderOf(servers: Pipeline['servers']): Map<string, number> {
  let order = serverOrders.get(servers);
  if (!order) serverOrders.set(servers, (order = new Map(Object.keys(servers).map((name, i) => [name, i]))));
  return order;
}

function resolveTargets(
  pipeline: Pipeline,
  contexts: Record<string, unknown>,
  masker: Masker,
): Record<string, TargetDef> {
  const reached = Object.entries(pipeline.targets).filter(
    ([name]) => !pipeline.reach || pipeline.reach.targets.has(name),
  );
  const targets = resolveOrRefuse(Object.fromEntries(reached), { contexts }, 'targets') as Record<string, TargetDef>;
  for (const [name, t] of Object.entries(targets)) {
    masker.add(t.token, `targets.${name}.token`);
    masker.add(t.password, `targets.${name}.password`);
  }
  return targets;
}

/** The server an instance calls: the step's, or its expression resolved with the instance's matrix. */
export function serverName(
  step: Step,
  combination: Readonly<Record<string, unknown>>,
  contexts: Record<string, unknown>,
): string | undefined {
  if (step.server === undefined || typeof step.server === 'string') return step.server;
  return toText(
    resolveOrRefuse(step.server, { contexts: { ...contexts, matrix: combination } }, `step ${step.index + 1}: server`),
  );
}
