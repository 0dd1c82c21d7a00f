// The credentials in the JSON answer `enginectl api` prints (a user's `ipassword`): each field
// whose name says it holds a credential (api/credential-names.ts; every text and number inside
// one) is a secret, as in a step's answer (runner/answer-secrets.ts): learnt by the command's
// masker before anything is printed (masked in every line enginectl writes, and registered with the
// CI's masking when it looks like a secret), and printed `***` whole, as the run's records write
// it, one line on stderr naming the fields by their jq path and --show-credentials. With
// --show-credentials they are printed as the server gave them, for a script that takes one
// (`| jq -r .ipassword`), and nowhere else (the other fields, the headers and stderr are masked
// with them); a value printed that the CI was not given (a word or a short value, which
// looksSecret does not register) and a CI that takes no secret at run time are said on stderr.
import type { CiSystem } from '../ci/system.ts';
import { credentialNamed } from '../api/credential-names.ts';
import { learnAnswer, maskAnswer } from '../runner/answer-secrets.ts';
import type { Masker } from '../runner/masker.ts';
import { neutralise } from '../text/neutralise.ts';

/** A credential-named field's value in an answer: where (a jq path, `[]` for any index), and its text. */
interface Field {
  path: string;
  text: string;
}

/** The most paths one line names. */
const NAMED = 10;

export interface AnswerOptions {
  /** --show-credentials: the fields as the server gave them. */
  show: boolean;
  ci: CiSystem;
  /** Writes a line on stderr (its line break added). */
  say: (line: string) => void;
}

/** The JSON `body` as `api` prints it: masked, its credential fields `***` or, with `show`, as given, each learnt first. */
export function answerToPrint(body: unknown, masker: Masker, options: AnswerOptions): unknown {
  const masked = maskAnswer(body);
  if (masked === body) return masker.maskValue(body);
  const fields: Field[] = [];
  fieldsOf(body, masked, '', fields);
  // Printed as given, each is registered with the CI first, however many; masked, the run's bound holds.
  learnAnswer(masker, body, 'the answer', { unbounded: options.show });
  const { ci, say } = options;
  if (!options.show) {
    say(
      `enginectl: the answer's credential fields are printed *** (${named(fields, masker)}); --show-credentials prints them as the server gave them, for a pipe or a file`,
    );
    return masker.maskValue(masked);
  }
  if (ci.mask('-') === undefined) {
    if (ci.name !== 'plain')
      say(
        `enginectl: warning: ${ci.name} takes no secret at run time: its log shows the credentials printed (${named(fields, masker)}); send the answer to a pipe or a file, not to the log`,
      );
  } else {
    const unregistered = fields.filter((f) => masker.mask(f.text) === f.text);
    if (unregistered.length > 0)
      say(
        `enginectl: warning: ${named(unregistered, masker)}: printed as the server gave it, but not registered with ${ci.name}'s masking (a word or under 6 characters is not taken for a secret: the CI would mask it in every later line): a log the answer is printed to shows it`,
      );
  }
  return withCredentials(body, masker.maskValue(body), false);
}

/** Each value `maskAnswer` replaced in `masked`, where it is in `original`. */
function fieldsOf(original: unknown, masked: unknown, path: string, out: Field[]): void {
  if (original === masked) return;
  if (typeof original === 'string' || typeof original === 'number') out.push({ path, text: String(original) });
  else if (Array.isArray(original)) original.forEach((v, i) => fieldsOf(v, (masked as unknown[])[i], `${path}[]`, out));
  else if (original && typeof original === 'object')
    for (const [k, v] of Object.entries(original as Record<string, unknown>))
      fieldsOf(
        v,
        (masked as Record<string, unknown>)[k],
        `${path}${/^[A-Za-z_]\w*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`}`,
        out,
      );
}

/** The distinct paths of `fields` (a key masked, the line inert), at most NAMED of them. */
function named(fields: Field[], masker: Masker): string {
  const paths = [...new Set(fields.map((f) => (f.path.startsWith('.') ? f.path : `.${f.path}`)))];
  const more = paths.length > NAMED ? `, and ${paths.length - NAMED} more` : '';
  return neutralise(masker.mask(`${paths.slice(0, NAMED).join(', ')}${more}`));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `printed` (`original` masked) with each text and number inside a credential-named field as in
 * `original`. Where masking changed the shape (a JSON secret written another way masked whole, two
 * keys masked to one), what is inside stays masked.
 */
function withCredentials(original: unknown, printed: unknown, credential: boolean): unknown {
  if (credential && (typeof original === 'string' || typeof original === 'number') && original !== '') return original;
  if (Array.isArray(original) && Array.isArray(printed) && original.length === printed.length)
    return printed.map((v, i) => withCredentials(original[i], v, credential));
  if (!isObject(original) || !isObject(printed)) return printed;
  const [keys, shown] = [Object.keys(original), Object.keys(printed)];
  if (keys.length !== shown.length) return printed;
  const out: Record<string, unknown> = {};
  keys.forEach((k, i) => {
    const value = withCredentials(original[k], printed[shown[i]!], credential || credentialNamed(k));
    // A computed key makes an own property, `__proto__` included.
    Object.defineProperty(out, shown[i]!, { value, enumerable: true, writable: true, configurable: true });
  });
  return out;
}
