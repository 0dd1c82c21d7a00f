// What identifies a run in its journal without revealing what it hashes: HMAC-SHA-256 keyed with
// a random salt kept in the journal. Without the key a journal's hash of a single-step action's
// inputs (a target password among them) or of --var values could be checked offline against
// guesses; with it, each guess needs the salt of that one journal and proves only equality with
// what is given again, which is what a resume asks.
import { createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { StepRun } from '../runner/result.ts';

export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

/** The last salt's key, made once: a run hashes every instance's inputs with one salt, and a key given as bytes is imported again by every HMAC. */
let last: { salt: string; key: KeyObject } | undefined;

/** The HMAC-SHA-256 of `text` under the salt, in hex. */
function hmac(salt: string, text: string): string {
  if (last?.salt !== salt) last = { salt, key: createSecretKey(Buffer.from(salt, 'hex')) };
  return createHmac('sha256', last.key).update(text).digest('hex');
}

export function keyedHash(salt: string, text: string): string {
  return `hmac-sha256:${hmac(salt, text)}`;
}

/** How a file's hash begins (journal version 3): the HMAC of the file's SHA-256, not of its text. */
export const FILE_HASH = 'hmac-sha256-of-sha256:';

/**
 * The SHA-256 of the texts hashed last (the masked text of a file, by its string): each site of a
 * shard worker is a run of its own, with a salt of its own, over the same files (10,000 sites'
 * inventories are 1.4 MB), so a file is read through once by the worker, not once per site.
 */
const digests = new Map<string, string>();
const KEPT_DIGESTS = 16;

/**
 * A file's hash under the journal's salt: the HMAC of its SHA-256. As keyed as the HMAC of its
 * text (each guess still needs the salt of that one journal and proves only equality), and made
 * in time independent of the file's size once the file was hashed by this process.
 */
export function fileHash(salt: string, text: string): string {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = createHash('sha256').update(text).digest('hex');
    if (digests.size >= KEPT_DIGESTS) digests.delete(digests.keys().next().value!);
    digests.set(text, digest);
  }
  return `${FILE_HASH}${hmac(salt, `sha256:${digest}`)}`;
}

/** A hash of values, keys in order: the same values give the same hash whatever their order. */
export function valuesHash(salt: string, values: unknown): string {
  return keyedHash(salt, canonical(values));
}

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * A digest of an instance's inputs (secrets masked) and server, keyed with the journal's salt.
 * Made once per instance while its inputs stay the same values (a write's send and its end both
 * record it: a fleet's every write hashed twice was a tenth of the journal's own cost).
 */
export function inputsDigest(salt: string): (run: StepRun) => string {
  const made = new WeakMap<StepRun, { inputs: unknown; target: unknown; server: unknown; digest: string }>();
  return (run) => {
    const { inputs, target = null, server = null } = run;
    const known = made.get(run);
    if (known?.inputs === inputs && known.target === target && known.server === server) return known.digest;
    const digest = valuesHash(salt, { inputs, target, server });
    made.set(run, { inputs, target, server, digest });
    return digest;
  };
}
