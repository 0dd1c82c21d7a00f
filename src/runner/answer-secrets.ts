// The credentials a step's own answer holds: classes/get, classes/query and classes/delete of a user
// answer its `ipassword`, an api/request whatever the server gives. The masker knows only the
// secrets the pipeline gives, so each value of a field whose name says it holds a credential
// (api/credential-names.ts: ipassword, apiToken, client_secret, ...), at any depth of what the step
// gave (its outputs and its result; every string and number inside such a field, a number as its
// JSON text: a passcode 482913 is one) that looks like a secret (looksSecret) is learnt by the
// run's masker as soon as the step returns, before anything shows it: masked wherever text goes out
// (the log, a later step's name and body, the journal, the reports, the outputs), a number also where
// a later step passes it on typed (runner/secret-numbers.ts), and registered
// with the CI's masking as every secret is (the masker's onSecret, cli/ci-masker.ts), up to
// CI_ANSWER_VALUES distinct values a command. Where the run
// keeps what the step gave (the reports, the journal's end record, the action's outputs), such a
// field is written masked whole, whatever it holds, learnt or not. A boolean (or null) inside one
// is shown as it is: it says whether (a token is set, SMS is a factor), never what, and a mask of
// `true` could not hide it in text. A later step of the same process reads the value as the step
// gave it (its live outputs); a resume cannot, as the journal kept it masked (journal/resume.ts).
import { credentialNamed } from '../api/credential-names.ts';
import { MASK, type Masker } from './masker.ts';

/**
 * The most distinct values read from answers a command registers with the CI's masking. The masker
 * registers a value once, however often it comes, but each in every spelling (some 6 lines a value)
 * and the runner looks for each one, and the encodings it derives, in every later line of the job: a
 * query of a user class's 10,000 passwords was 62,000 `::add-mask::` lines. A pipeline that reads
 * a few users stays under it. Past it, a value is learnt all the same, masked in all enginectl writes
 * and whole in the answer's records, only not given to the CI (a warning says so, once a field).
 */
const CI_ANSWER_VALUES = 100;
const registered = new WeakMap<Masker, Set<string>>(); // the values of answers each masker gave the CI

/**
 * Learns every string and number inside each credential-named field of `value` that looks like a
 * secret (`what`: whose answer, for a warning that names it). `unbounded`: each registered with the
 * CI, past CI_ANSWER_VALUES too (`api --show-credentials` prints every one).
 */
export function learnAnswer(masker: Masker, value: unknown, what = 'an answer', o: { unbounded?: boolean } = {}): void {
  const told = registered.get(masker) ?? new Set<string>();
  registered.set(masker, told);
  walk(value, undefined, (key, text) => {
    if (!looksSecret(text)) return;
    const name = `${masker.mask(key)} in ${what}`;
    if (!o.unbounded && told.size >= CI_ANSWER_VALUES && !told.has(text))
      return masker.add(text, name, pastTheBound(name));
    told.add(text);
    masker.add(text, name);
  });
}

const pastTheBound = (name: string) =>
  `${name}: more than ${CI_ANSWER_VALUES} distinct credentials were read from answers; enginectl masks each in all it writes, but registers only the first ${CI_ANSWER_VALUES} with the CI's masking, so another step of the job that prints one is not masked by the CI (read fewer entities, with where:, to have each registered)`;

/**
 * The fewest characters of an answer's value learnt for every line: the 6 digits of a one-time
 * passcode. A shorter one (`local`, `ldap`, `none`, `sso`, a 4-digit `1234`) is a common piece of
 * any log line, and GitHub's runner masks what it is told in every later line of the job, whatever
 * its length, with no way to take it back.
 */
const ANSWER_MIN_LENGTH = 6;

/** A word (`local`, `LDAP`, `Basic`), or words joined by `-`, `_`, `.` or a space (`client_creds`, `Not set`). */
const WORDS = /^(?:[a-z]+|[A-Z][a-z]*|[A-Z]+)(?:[-_. ](?:[a-z]+|[A-Z][a-z]*|[A-Z]+))*$/;

/**
 * Whether an answer's value under a credential name is a secret to mask in every line and register
 * with the CI: not shorter than ANSWER_MIN_LENGTH, and not one or two words of one case each of at
 * most LITERAL_MAX characters (an enum's literal: an auth method, a token type, `disabled`). A credential-named field may hold a
 * setting as well as a credential (`iauth: local`), and a setting learnt would mask that word in
 * every line (`/usr/local`, a step's name) and, in a GitHub job, in every later step too. A secret
 * has digits, signs or a mixed case in a word (`Cl1ent-S3cret-99`, a token, a base64 `dXNlcjpw`);
 * a password that is a plain word or short is written masked in the answer's records all the same.
 */
function looksSecret(text: string): boolean {
  const value = text.trim();
  return value.length >= ANSWER_MIN_LENGTH && !(value.length <= LITERAL_MAX && WORDS.test(value) && words(value) <= 2);
}

/**
 * The longest an enum's literal is read to be (`client_creds`, `KERBEROS`, `disabled`): a longer
 * value of words (a passphrase `correct horse battery staple`, a `PLAINWORDSECRET`) is a secret, as
 * is one of three words or more.
 */
const LITERAL_MAX = 12;
const words = (value: string) => value.split(/[-_. ]/).length;

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
