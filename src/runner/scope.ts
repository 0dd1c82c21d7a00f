// The contexts of expressions during a run, and resolving the servers and targets of a pipeline.
import { resolveDeep, type EvalScope } from '../expr/index.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { TargetDef } from '../steps/types.ts';
import type { Masker } from './masker.ts';

export interface ResolvedServer {
  name: string;
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  timeoutMs?: number | undefined;
  caFile?: string | undefined;
  insecureSkipTlsVerify?: boolean | undefined;
  allowInsecureHttp?: boolean | undefined;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Context values that do not change during a run. */
export function baseContexts(pipeline: Pipeline, env: Env): Record<string, unknown> {
  const envCopy: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(env)) if (v !== undefined) Object.defineProperty(envCopy, k, { value: v, enumerable: true });
  return { env: envCopy, secrets: envCopy, vars: pipeline.vars, pipeline: { name: pipeline.name } };
}

/** Every environment variable the pipeline reads as secrets.X: masked from the start. */
export function registerSecrets(pipeline: Pipeline, env: Env, masker: Masker): void {
  const text = JSON.stringify([pipeline.servers, pipeline.targets, pipeline.vars, pipeline.steps.map((s) => [s.with, s.if, s.name])]);
  for (const m of text.matchAll(/secrets\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])/g)) masker.add(env[(m[1] ?? m[2])!]);
}

export function resolveServers(pipeline: Pipeline, base: Record<string, unknown>, masker: Masker): Map<string, ResolvedServer> {
  const scope: EvalScope = { contexts: base };
  const servers = new Map<string, ResolvedServer>();
  for (const [name, s] of Object.entries(pipeline.servers)) {
    const r = resolveDeep({ url: s.url, username: s.username, password: s.password, caFile: s.caFile, insecure: s.insecureSkipTlsVerify, allowHttp: s.allowInsecureHttp }, scope) as Record<string, unknown>;
    const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
    masker.add(str(r.password));
    // The Authorization header is base64 of user:password: a form the password alone does not cover.
    if (r.password !== undefined && r.password !== null) masker.add(Buffer.from(`${str(r.username) ?? ''}:${str(r.password)}`).toString('base64'));
    try {
      const inUrl = new URL(String(r.url ?? '')).password;
      if (inUrl) masker.add(decodeURIComponent(inUrl));
    } catch {
      // not a URL; the loader reports it
    }
    servers.set(name, {
      name,
      url: String(r.url ?? ''),
      username: str(r.username),
      password: str(r.password),
      timeoutMs: s.timeoutMs,
      caFile: str(r.caFile),
      insecureSkipTlsVerify: r.insecure === true || r.insecure === 'true',
      allowInsecureHttp: r.allowHttp === true || r.allowHttp === 'true',
    });
  }
  return servers;
}

export function resolveTargets(pipeline: Pipeline, base: Record<string, unknown>, masker: Masker): Record<string, TargetDef> {
  const targets = resolveDeep(pipeline.targets, { contexts: base }) as Record<string, TargetDef>;
  for (const t of Object.values(targets)) {
    masker.add(t.token);
    masker.add(t.password);
  }
  return targets;
}

/** Secrets inside resolved inputs: tokens, passwords, license codes. */
export function registerInputSecrets(value: unknown, masker: Masker, key = ''): void {
  if (typeof value === 'string') {
    if (/^(token|password|code)$/i.test(key)) masker.add(value);
    return;
  }
  if (Array.isArray(value)) value.forEach((v) => registerInputSecrets(v, masker));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) registerInputSecrets(v, masker, k);
}
