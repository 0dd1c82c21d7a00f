// The masking behind every hash of a pipeline's files (the journal's, the reports' pipeline.sha256,
// a shard manifest's, a saved plan's): every secret the FILE holds, whatever the run selects. A
// masking by what the selection reaches (prepareRun) would hash another server's literal password
// in the clear (an offline check of a guess of it), and hash one file otherwise for each selection:
// a static shard worker (its own sites) refused its manifest, a resume with another --only saw a
// changed file. Learnt: the secrets the file names (secrets.X) that the run is given; every
// server's, target's and step input's credential, literal or resolved; the vars that read a
// secret; the password in a server's URL (servers.X.url), literal or resolved, from the environment
// too (the pipeline names that URL as a server's: `url: ${{ env.PROD_URL }}`), and a URL that holds
// a secret as the URL parser spells it (server-url-secrets.ts). Nothing else from
// the environment (an env.X the pipeline does not name as a server's URL, holding a URL with a
// password, is the run's masker's to learn, not the hash's: the hash would then depend on the machine).
import { defaultServerOf } from '../api/server-env.ts';
import { isStatic, resolveDeep, toText } from '../expr/index.ts';
import type { PipelineInvalid } from '../pipeline/diagnostics.ts';
import { literalCredentials } from '../pipeline/literal-credentials.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { registerInputSecrets } from './declared-secrets.ts';
import { Masker } from './masker.ts';
import { learnServerUrl } from './server-url-secrets.ts';
import type { Env } from '../environment.ts';

/** A record without a prototype: `__proto__` and `constructor` are plain keys. */
export function plainRecord(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true });
  return out;
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value)))
    for (const v of Object.values(value)) strings(v, out);
  return out;
}

/**
 * Teaches `masker` a value that holds a secret (a var that reads one, a value computed from one):
 * each string in it, and the value itself when it is a number (48213377 read from a JSON secret).
 * Not the keys of an object, nor a number inside one: those are a secret's field names and
 * settings (`user`, `password`, a site's name, a year), which masked would hide ordinary words.
 */
export function registerSecretValue(value: unknown, masker: Masker, name: string): void {
  if (typeof value === 'number' && Number.isFinite(value)) masker.add(String(value), name);
  else for (const s of strings(value)) masker.add(s, name);
}

/** What `value` resolves to, or undefined where it cannot (a secret this job is not given). */
function tryResolve(value: unknown, contexts: Record<string, unknown>): unknown {
  try {
    return resolveDeep(value, { contexts });
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (v === undefined || v === null ? undefined : toText(v));

/** Teaches `masker` every secret the pipeline's file holds (see above), every server and target whatever `pipeline.reach` says. */
export function learnFileSecrets(pipeline: Pipeline, env: Env, masker: Masker): void {
  const secrets = plainRecord(
    pipeline.secrets.flatMap((name): [string, unknown][] => (env[name] === undefined ? [] : [[name, env[name]]])),
  );
  for (const [name, value] of Object.entries(secrets)) masker.add(value as string, `secrets.${name}`);
  const envContext = plainRecord(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  const vars: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(pipeline.vars)) {
    const resolved = isStatic(value) ? value : tryResolve(value, { env: envContext, secrets, vars });
    if (pipeline.secretVars.has(name)) registerSecretValue(resolved, masker, `vars.${name}`);
    Object.defineProperty(vars, name, { value: resolved, enumerable: true, writable: true });
  }
  const contexts = { env: envContext, secrets, vars };
  for (const step of pipeline.steps) {
    const type = STEP_TYPES.get(step.uses);
    if (type && step.with) registerInputSecrets(type, step.with as Record<string, unknown>, masker);
  }
  for (const [name, s] of Object.entries(pipeline.servers)) {
    const where = `servers.${name}.password`;
    const password = str(isStatic(s.password) ? s.password : tryResolve(s.password, contexts));
    const username = str(isStatic(s.username) ? s.username : tryResolve(s.username, contexts));
    masker.addLogin(username, password, where);
    learnServerUrl(str(isStatic(s.url) ? s.url : tryResolve(s.url, contexts)), masker, `servers.${name}.url`);
  }
  for (const [name, t] of Object.entries(pipeline.targets)) {
    for (const field of ['token', 'password'] as const) {
      const value = (t as unknown as Record<string, unknown>)[field];
      masker.add(str(isStatic(value) ? value : tryResolve(value, contexts)), `targets.${name}.${field}`);
    }
  }
}

/** Once per servers object and environment: the sites of a sharded fleet share them, and each would otherwise cost the fleet's size. */
const learnt = new WeakMap<object, WeakMap<object, Masker>>();

/**
 * The masker every hash of the pipeline's files is taken with (its own, never the run's, which
 * learns more as it goes): the same for every selection of the same file and secrets.
 */
export function fileMasker(pipeline: Pipeline, env: Env): Masker {
  const byEnv = learnt.get(pipeline.servers) ?? new WeakMap<object, Masker>();
  learnt.set(pipeline.servers, byEnv);
  let masker = byEnv.get(env);
  if (!masker) {
    masker = new Masker();
    learnFileSecrets(pipeline, env, masker);
    byEnv.set(env, masker);
  }
  return masker;
}

/** The names a text reads as `secrets.NAME` or `secrets['NAME']`. */
const SECRET_NAMES = /\bsecrets\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*['"]([^'"]+)['"]\s*\])/g;

/**
 * Teaches `masker` what the files of a pipeline that failed to load hold (its findings quote their
 * lines): the credentials they write literally, read from their YAML as far as it parses and from
 * their lines as written, where YAML may read a tag, an anchor or an alias instead
 * (pipeline/literal-credentials.ts), the secrets they name that `env` gives, and the default
 * server's password (ENGINE_PASSWORD, or in ENGINE_URL's user part).
 */
export function learnInvalidFileSecrets(error: PipelineInvalid, env: Env, masker: Masker): void {
  // The default server's credentials, which a pipeline that loads masks wherever it writes them.
  const { url, password } = defaultServerOf(env);
  if (password) masker.add(password, 'ENGINE_PASSWORD');
  learnServerUrl(url, masker, 'ENGINE_URL');
  for (const text of [error.source, ...Object.values(error.others)]) {
    if (text === undefined) continue;
    for (const { value, where } of literalCredentials(text)) masker.add(value, where);
    for (const [, dotted, quoted] of text.matchAll(SECRET_NAMES)) {
      const name = (dotted ?? quoted)!;
      if (Object.hasOwn(env, name)) masker.add(env[name], `secrets.${name}`);
    }
  }
}
