// The servers a sharded run's sites call, where a secret is in their URL (url: "${{
// secrets.FLEET_URL }}/sites/..."): the masked URL is the same text whatever server the secret
// names, and so are the pipeline's hash and its inventory, so two GitHub environments of one
// workflow run (one file, one secret name, another value in each) would plan one fleet. The
// manifest keeps each such server by name, masked, and with ENGINECTL_JOURNAL_KEY the key's
// fingerprint of its URL as the client calls it (journal/fingerprint.ts, under a salt of the
// run's own, with its key check: another key is told from another server). A plan that finds the
// run of its key (a re-run) refuses it when a fingerprint differs, or when it cannot tell (no key,
// another key, a manifest without fingerprints), unless the key is the user's own (--run-key); a
// worker refuses a run whose fingerprints differ, or that it cannot check with the plan's key.
// A server whose URL holds no secret is not kept: its URL is in the hashed file (or a --var).
import { createHash } from 'node:crypto';
import { calledAt } from '../api/called-at.ts';
import { newSalt } from '../journal/hashing.ts';
import { JOURNAL_KEY_VARIABLE, journalKey } from '../journal/seal.ts';
import { placeId } from '../journal/sent-server.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { Masker } from '../runner/masker.ts';
import { plannedInstances } from '../runner/planned.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import type { Manifest } from '../shard/manifest.ts';
import { MASK } from '../text/mask.ts';
import { fingerprint, keyCheck } from '../journal/fingerprint.ts';

type Kept = NonNullable<Manifest['servers']>;

/** Each server the pipeline resolves whose URL holds a secret: its URL as the client calls it (without credentials) and masked. */
function secretUrls(pipeline: Pipeline, env: Env): Map<string, { url: string; masked: string }> {
  const masker = new Masker();
  const out = new Map<string, { url: string; masked: string }>();
  for (const [name, server] of prepareRun(pipeline, env, masker).servers) {
    const url = calledAt(server.url);
    const masked = masker.mask(url);
    if (masked.includes(MASK)) out.set(name, { url, masked });
  }
  return out;
}

/**
 * The fleet's servers whose URL holds a secret, told by the key's fingerprints of their places (the
 * same in every run under the key: journal/sent-server.ts placeId), as one digest: another
 * environment's fleet (another value of the secret) is another fleet. '' without the key or such a server.
 */
export function fleetPlaces(pipeline: Pipeline, env: Env): string {
  const key = journalKey(env);
  if (key === undefined) return '';
  const places = [...secretUrls(pipeline, env)].map(([name, { url }]) => [name, placeId(key, url)]);
  if (places.length === 0) return '';
  return createHash('sha256').update(JSON.stringify(places.sort())).digest('hex');
}

/** What a new run's manifest keeps of its servers whose URL holds a secret: none when no URL does. */
export function keptServers(pipeline: Pipeline, env: Env): { servers?: Kept } {
  const urls = secretUrls(pipeline, env);
  if (urls.size === 0) return {};
  const key = journalKey(env);
  const of = key === undefined ? undefined : { key, salt: newSalt() };
  const called: Kept['called'] = {};
  for (const [name, { url, masked }] of urls)
    called[name] = of ? { url: masked, fingerprint: fingerprint(of, url) } : { url: masked };
  return { servers: of ? { salt: of.salt, keyCheck: keyCheck(of), called } : { called } };
}

/** The servers this pipeline calls that the run's manifest does not show to be its own: `other` proven another, `unknown` not provable (`why`). */
function compare(manifest: Manifest, pipeline: Pipeline, env: Env) {
  const kept = manifest.servers;
  const key = journalKey(env);
  const of = kept?.salt !== undefined && key !== undefined ? { key, salt: kept.salt } : undefined;
  const keyed = of !== undefined && kept?.keyCheck === keyCheck(of);
  const other: string[] = [];
  const unknown: string[] = [];
  for (const [name, { url, masked }] of secretUrls(pipeline, env)) {
    const was = kept?.called[name];
    if (was !== undefined && was.url !== masked) other.push(name);
    else if (was?.fingerprint !== undefined && keyed) {
      if (was.fingerprint !== fingerprint(of!, url)) other.push(name);
    } else unknown.push(name);
  }
  const why =
    kept?.salt !== undefined
      ? key === undefined
        ? `the run was planned with ${JOURNAL_KEY_VARIABLE}, which is not set here`
        : `${JOURNAL_KEY_VARIABLE} is not the key the run was planned with`
      : `the run was planned without ${JOURNAL_KEY_VARIABLE} (no fingerprint of its servers kept)${key === undefined ? `, and it is not set here` : ''}`;
  return { other, unknown, why, fingerprinted: kept?.salt !== undefined };
}

/** The sites whose instances call one of `servers`, in the fleet's order; the servers' names when none does. */
function sitesOf(pipeline: Pipeline, env: Env, over: string, servers: readonly string[]): string {
  const wanted = new Set(servers);
  const sites = new Set<string>();
  for (const i of plannedInstances(pipeline, env, new Masker()))
    if (i.server !== undefined && wanted.has(i.server) && i.matrix?.[over] !== undefined)
      sites.add(String(i.matrix[over]));
  return sites.size > 0 ? `${over}(s) ${[...sites].join(', ')}` : `server(s) ${servers.join(', ')}`;
}

const NOTHING = 'nothing was planned or sent';

/**
 * A plan that found the run of its key: refused (why, and the hint) when a server whose URL holds a
 * secret is proven another than the run's, or cannot be told from it and the key is the CI run's
 * (`named`: the user's --run-key, which names this fleet's plan, is then trusted as it is).
 */
export function keyedServersRefusal(
  manifest: Manifest,
  pipeline: Pipeline,
  env: Env,
  named: boolean,
): { why: string; hint: string } | undefined {
  const { other, unknown, why } = compare(manifest, pipeline, env);
  if (other.length > 0)
    return {
      why: `${sitesOf(pipeline, env, manifest.over, other)} call(s) other servers than its own (their URLs hold a secret, of another value here: another environment's fleet, or a secret changed)`,
      hint: `plan this fleet's rollout under a key of its own: --run-key (e.g. the CI run's id and the environment's name, one per plan job of a matrix); ${NOTHING}`,
    };
  if (unknown.length > 0 && !named)
    return {
      why: `the URLs of ${sitesOf(pipeline, env, manifest.over, unknown)} hold a secret, and ${why}: this plan cannot tell whether they are the servers of that run (another environment's plan job of the same CI run would be told that run's sites ended)`,
      hint: `set ${JOURNAL_KEY_VARIABLE} (a CI secret, the same for every plan and worker of the fleet) so the run keeps a fingerprint of each server, or give each environment's plan its own --run-key; ${NOTHING}`,
    };
  return undefined;
}

/** A worker's check before any write: refused (why, and the hint) when a server is proven another than the run's, or the run fingerprinted its servers and this worker cannot check them. */
export function workerServersRefusal(
  manifest: Manifest,
  pipeline: Pipeline,
  env: Env,
): { why: string; hint: string } | undefined {
  // A run whose plan kept no server proves none other and has no fingerprint to check: nothing to
  // refuse, so the fleet is not resolved again for it.
  if (manifest.servers === undefined) return undefined;
  const { other, unknown, why, fingerprinted } = compare(manifest, pipeline, env);
  if (other.length > 0)
    return {
      why: `its ${sitesOf(pipeline, env, manifest.over, other)} call(s) other servers here than when planned (their URLs hold a secret, of another value here)`,
      hint: `run each shard with the secrets its plan had (the same GitHub environment), or plan this fleet's own rollout (enginectl shard --run-key KEY); nothing was sent`,
    };
  if (unknown.length > 0 && fingerprinted)
    return {
      why: `the URLs of ${sitesOf(pipeline, env, manifest.over, unknown)} hold a secret, and ${why}: this worker cannot check they are the servers it was planned against`,
      hint: `run each shard with the ${JOURNAL_KEY_VARIABLE} its plan had; nothing was sent`,
    };
  return undefined;
}
