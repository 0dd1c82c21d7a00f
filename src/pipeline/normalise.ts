// The last stage of loading: a valid file as the runner's model. Strings with `${{ }}` compiled
// into Templates, conditions into Expressions, durations and sizes parsed, names defaulted, the
// environment's server added when the file declares none; --var values stay data.
import { defaultServerOf } from '../api/server-env.ts';
import {
  callsStatus,
  compileCondition,
  compiledReferences,
  refsReadSecret,
  compileString,
  compileValue,
  conditionText,
  parseExpression,
  type Expression,
} from '../expr/index.ts';
import { UsageError } from '../errors.ts';
import { CLI_WAYS } from '../ways-on.ts';
import { parseDuration } from '../duration.ts';
import { parseSize } from '../size.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { StepType } from '../steps/types.ts';
import { didYouMean } from './diagnostics.ts';
import type { Pipeline, Rollout, ServerDef, Step, TargetSpec, WaveSpec } from './model.ts';
import type { PipelineFile } from './schema.ts';
import { RETRY_BACKOFF, RETRY_DELAY_MS } from './schema.ts';
import type { SemanticOptions } from './semantics.ts';
import { DEFAULT_SERVER } from './servers-check.ts';
import { scheduleSpecOf } from './schedule-spec.ts';
import { locate, type Position, type YamlSource } from './yaml-doc.ts';

type RawStep = PipelineFile['steps'][number];

/** What the semantic rules read, and the file's name. */
export interface NormaliseOptions extends SemanticOptions {
  file: string;
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

/** A --var (or the action's vars input) the file neither declares nor reads is a typo. */
function checkVarOverrides(data: PipelineFile, compiled: unknown, options: NormaliseOptions): void {
  const declared = Object.keys(data.vars ?? {});
  const read = new Set(
    compiledReferences(compiled)
      .filter((r) => r.path[0] === 'vars' && r.path[1] !== undefined)
      .map((r) => r.path[1]!),
  );
  for (const name of Object.keys(options.vars ?? {})) {
    if (declared.includes(name) || read.has(name)) continue;
    const known = [...new Set([...declared, ...read])];
    const guess = didYouMean(name, known);
    throw new UsageError(
      'BAD_VAR',
      `var "${name}" (${(options.ways ?? CLI_WAYS).vars}): the pipeline neither declares nor reads it`,
      {
        hint: guess
          ? `did you mean "${guess}"?`
          : known.length
            ? `its vars: ${known.join(', ')}`
            : 'the pipeline has no vars',
      },
    );
  }
}

export function normalise(
  source: YamlSource,
  data: PipelineFile,
  stepServers: (string | undefined)[],
  options: NormaliseOptions,
): Pipeline {
  const servers: Record<string, ServerDef> = Object.create(null);
  for (const [name, s] of Object.entries(data.servers ?? {})) {
    const text = (v: string | undefined) => (v === undefined ? undefined : compileString(v));
    const flag = (v: string | boolean | undefined) => (typeof v === 'string' ? compileString(v) : v);
    servers[name] = {
      name,
      url: compileString(s.url),
      username: text(s.username),
      password: text(s.password),
      timeoutMs: s.timeout ? parseDuration(s.timeout) : undefined,
      maxResponseBytes: s['max-response-size'] === undefined ? undefined : parseSize(s['max-response-size']),
      caFile: text(s['ca-file']),
      insecureSkipTlsVerify: flag(s['insecure-skip-tls-verify']),
      allowInsecureHttp: flag(s['allow-insecure-http']),
    };
  }
  // The environment's server: its values are data, as every value from outside the file.
  // Its URL is checked with every other server's, before the first call.
  const fromEnv = options.defaultServer ?? defaultServerOf(options.env);
  if (Object.keys(servers).length === 0 && (fromEnv.url || options.emulator || options.checkEnv === false)) {
    servers[DEFAULT_SERVER] = { name: DEFAULT_SERVER, ...fromEnv, url: fromEnv.url ?? '' };
  }
  // File vars are compiled; --var values are data. A var the file makes of a secret (or of a var
  // that is one) holds a secret, whatever --var gives it.
  const vars: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(data.vars ?? {}))
    Object.defineProperty(vars, k, { value: compileValue(v), enumerable: true, writable: true });
  const fileVars = { ...vars };
  for (const [k, v] of Object.entries(options.vars ?? {}))
    Object.defineProperty(vars, k, { value: v, enumerable: true, writable: true });
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
      ...(s['on-failure'] ? { onFailure: s['on-failure'] } : {}),
      timeoutMs: timeout ? parseDuration(timeout) : undefined,
      ...(s.longest ? { longestMs: parseDuration(s.longest) } : {}),
      ...(s.expected ? { expectedMs: parseDuration(s.expected) } : {}),
      retry: retry
        ? {
            attempts: retry.attempts,
            delayMs: retry.delay ? parseDuration(retry.delay)! : RETRY_DELAY_MS,
            backoff: retry.backoff ?? RETRY_BACKOFF,
            inDoubt: retry['in-doubt'] ?? 'stop',
          }
        : undefined,
      matrix: s.matrix,
      maxParallel: s['max-parallel'] ?? 1,
      failFast: s['fail-fast'] ?? true,
      server: stepServers[index] === undefined ? undefined : compileString(stepServers[index]!),
    } as Omit<Step, 'position'> as Step;
    // Asked for only when a step's line is shown (an annotation): locating needs the positioned
    // YAML Document, which a large valid file otherwise never builds (yaml-doc.ts).
    let position: Step['position'] | undefined;
    Object.defineProperty(step, 'position', {
      enumerable: true,
      get: () => (position ??= locate(source, ['steps', index])),
    });
    return step;
  });
  const name =
    data.name === undefined ? options.file.replace(/^.*[\\/]/, '').replace(/\.ya?ml$/, '') : compileString(data.name);
  const compiled = [name, vars, servers, targets, steps.map((s) => [s.name, s.with, s.if])];
  checkVarOverrides(data, compiled, options);
  const schedule = scheduleSpecOf(data);
  const secrets = new Set<string>();
  for (const ref of compiledReferences(compiled))
    if (ref.path[0] === 'secrets' && ref.path[1] !== undefined) secrets.add(ref.path[1]);
  const secretVars = new Set<string>();
  for (const [k, v] of Object.entries(fileVars))
    if (refsReadSecret(compiledReferences(v), { vars: secretVars, env: secrets })) secretVars.add(k);
  return {
    file: options.file,
    name,
    vars,
    secretVars,
    secrets: [...secrets],
    servers,
    targets,
    steps,
    reach: options.reach,
    ...(data.rollout ? { rollout: rolloutOf(data.rollout, data['on-failure']) } : {}),
    ...(schedule ? { schedule } : {}),
    ...(data['park-after'] ? { parkAfterMs: parseDuration(data['park-after'])! } : {}),
    ...(data.park?.['keep-lease'] ? { keepLeaseParked: true } : {}),
    ...(data.lease
      ? {
          lease: located(
            {
              name: data.lease.name,
              ttlMs: data.lease.ttl ? parseDuration(data.lease.ttl)! : 10 * 60_000,
              waitMs: data.lease.wait ? parseDuration(data.lease.wait)! : 0,
              ...(data.lease.over ? { over: data.lease.over } : {}),
            },
            () => locate(source, ['lease']),
          ),
        }
      : {}),
  };
}

const share = (text: string) => Number(text.slice(0, -1)) / 100;

function rolloutOf(r: NonNullable<PipelineFile['rollout']>, onFailure: PipelineFile['on-failure']): Rollout {
  const budget = r['max-failures'] ?? 0;
  return {
    over: r.over,
    waves: r.waves.map((w): WaveSpec =>
      Array.isArray(w)
        ? { values: w }
        : w === 'rest'
          ? { rest: true }
          : typeof w === 'number'
            ? { count: w }
            : { share: share(w) },
    ),
    maxParallel: r['max-parallel'] ?? 1,
    maxFailures: typeof budget === 'number' ? { count: budget } : { share: share(budget) },
    analysis: r.analysis && {
      gates: r.analysis.gates ?? [],
      count: r.analysis.count ?? 3,
      intervalMs: parseDuration(r.analysis.interval ?? '2m')!,
      failureLimit: r.analysis['failure-limit'] ?? 0,
      bakeMs: Array.isArray(r.analysis.bake)
        ? r.analysis.bake.map((b) => parseDuration(b)!)
        : r.analysis.bake
          ? parseDuration(r.analysis.bake)!
          : 0,
    },
    onFailure: r['on-failure'] ?? onFailure ?? 'halt',
  };
}

/** `value` with a `position` located only when asked for (a refusal that shows its line), never enumerated. */
function located<T extends object>(value: T, locateIt: () => Position): T & { readonly position: Position } {
  let position: Position | undefined;
  Object.defineProperty(value, 'position', { enumerable: false, get: () => (position ??= locateIt()) });
  return value as T & { readonly position: Position };
}
