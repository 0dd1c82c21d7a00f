// What identifies a run in its journal without revealing what it hashes: HMAC-SHA-256 keyed with
// a random salt kept in the journal. Without the key a journal's hash of a single-step action's
// inputs (a target password among them) or of --var values could be checked offline against
// guesses; with it, each guess needs the salt of that one journal and proves only equality with
// what is given again, which is what a resume asks.
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

/** The last salt's key, made once: a run hashes every instance's inputs with one salt, and a key given as bytes is imported again by every HMAC. */
let last: { salt: string; key: KeyObject } | undefined;

export function keyedHash(salt: string, text: string): string {
  if (last?.salt !== salt) last = { salt, key: createSecretKey(Buffer.from(salt, 'hex')) };
  return `hmac-sha256:${createHmac('sha256', last.key).update(text).digest('hex')}`;
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
