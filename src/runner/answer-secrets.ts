// The credentials a step's own answer holds: classes/get, classes/query and classes/delete of a user
// answer its `ipassword`, an api/request whatever the server gives. The masker knows only the
// secrets the pipeline gives, so each value of a field whose name says it holds a credential
// (api/credential-names.ts: ipassword, apiToken, client_secret, ...), at any depth of what the step
// gave (its outputs and its result; every string and number inside such a field, a number as its
// JSON text: a passcode 482913 is one), is learnt by the run's masker as soon as the step returns,
// before anything shows it: masked wherever text goes out (the log, a later step's name and body,
// the journal, the reports, the outputs) and registered with the CI's masking as every secret is
// (the masker's onSecret, cli/ci-masker.ts). Where the run keeps what the step gave (the reports,
// the journal's end record, the action's outputs), such a field is written masked whole, whatever
// its length. A boolean (or null) inside one is shown as it is: it says whether (a token is set,
// SMS is a factor), never what, and a mask of `true` could not hide it in text. A later step of the
// same process reads the value as the step gave it (its live outputs); a resume cannot, as the
// journal kept it masked (journal/resume.ts).
import { credentialNamed } from '../api/credential-names.ts';
import { MASK, type Masker } from './masker.ts';

/** Learns every string and number inside each credential-named field of `value` (`what`: whose answer, for a warning that names it). */
export function learnAnswer(masker: Masker, value: unknown, what = 'an answer'): void {
  walk(value, undefined, (key, text) => masker.add(text, `${masker.mask(key)} in ${what}`));
}

function walk(value: unknown, under: string | undefined, learn: (key: string, text: string) => void): void {
  if (typeof value === 'string' || typeof value === 'number') {
    if (under !== undefined && value !== '') learn(under, String(value));
  } else if (Array.isArray(value)) for (const v of value) walk(v, under, learn);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      walk(v, under ?? (credentialNamed(k) ? k : undefined), learn);
}

/**
 * `value` with every string and number inside each credential-named field replaced by MASK. Copied
 * on write, as the masker's maskValue: what holds no such field is returned as it is (the original
 * is never modified: the live outputs a later step reads share it).
 */
export function maskAnswer<T>(value: T): T {
  return masked(value, false) as T;
}

function masked(value: unknown, credential: boolean): unknown {
  if (typeof value === 'string' || typeof value === 'number') return credential && value !== '' ? MASK : value;
  if (Array.isArray(value)) {
    const out = value.map((v) => masked(v, credential));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (!value || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(source)) {
    const m = masked(v, credential || credentialNamed(k));
    if (m === v) continue;
    out ??= { ...source };
    // A computed key makes an own property, `__proto__` included.
    Object.defineProperty(out, k, { value: m, enumerable: true, writable: true, configurable: true });
  }
  return out ?? value;
}
