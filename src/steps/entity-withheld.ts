// The fields of an entity enginectl never keeps or shows when it reads the entity on its own (the
// snapshot a write's journal keeps for verify, plan --live's preview): an old credential is still
// one (reused, or still valid elsewhere), and the masker knows only the secrets the pipeline gives.
// Withheld: a field whose name says it holds a credential (api/credential-names.ts, the one rule:
// ipassword, iapitoken, client_secret; not ilastpasswdchg, a date), at any depth, and a field the call
// writes with a secret (its old value is what the secret replaces). Verify needs neither: it
// compares the readable written fields and the version (verify-entity.ts).
import { credentialNamed } from '../api/credential-names.ts';

/** Stands in for a withheld value, of any type, where the entity is kept or shown. */
export const NOT_KEPT = '(not kept)';

/** Whether a field named `name` holding `value` is withheld in part or whole: its name, or a key inside it, says credential. */
export function withholdsIn(name: string, value: unknown): boolean {
  if (credentialNamed(name)) return true;
  if (Array.isArray(value)) return value.some((v) => withholdsIn('', v));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value as Record<string, unknown>).some(([k, v]) => withholdsIn(k, v));
}

/**
 * `value` (an entity as the server answered it) with every field whose name says it holds a
 * credential, at any depth, and each top-level field in `written` (those the call writes with a
 * secret), replaced by NOT_KEPT. Copied; the value given is not changed.
 */
export function withheld(value: unknown, written: readonly string[] = []): unknown {
  return walk(value, new Set(written));
}

function walk(value: unknown, top: ReadonlySet<string> | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, undefined));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const kept = !credentialNamed(k) && !top?.has(k);
    Object.defineProperty(out, k, { value: kept ? walk(v, undefined) : NOT_KEPT, enumerable: true, writable: true });
  }
  return out;
}
