// The texts a secret may be written as before any escaping (the masker also undoes every escape
// of the text it searches: text/decoded-view.ts), and the spellings a CI system's own log masking
// is told.
import { singleByteForms } from './single-byte-forms.ts';

/** Shorter secrets are masked only in credential fields: in free text they would mask everything. */
export const MIN_LENGTH = 3;

/**
 * The texts a secret may be written as before any escaping: itself, each line, base64 (hex:
 * secretHexForms), a token of hex groups joined by dashes (a UUID) in lower and upper case, and one
 * past ASCII as read when a server wrote it in a single-byte charset.
 */
export function secretForms(secret: string): string[] {
  const texts = textsOf(secret);
  return unique([
    ...texts,
    ...texts.flatMap(base64Forms),
    ...texts.flatMap(dashedHexCases),
    ...texts.flatMap(misdecoded),
  ]);
}

/**
 * A text with characters past ASCII as an answer reads when the server wrote it in a single-byte
 * charset (ISO-8859-1, a Java servlet's default; windows-1250 ...): every answer is read as UTF-8.
 * Each known charset's bytes so read (single-byte-forms.ts), and for one not known the text with
 * each such character U+FFFD; a form with fewer than MIN_LENGTH characters but U+FFFD is none
 * (`äöü` would mask any garbled text).
 */
function misdecoded(text: string): string[] {
  if (!/[\u0080-\uffff]/.test(text)) return [];
  const forms = [text.replace(/[\u0080-\uffff]/gu, '\ufffd'), ...singleByteForms(text)];
  return forms.filter((form) => form.replace(/\ufffd/g, '').length >= MIN_LENGTH);
}

/** Hex groups joined by dashes, as a UUID: at least as long as a hex secret, one dash or more. */
const DASHED_HEX = new RegExp(`^(?=.{${2 * MIN_LENGTH},}$)[0-9a-fA-F]+(?:-[0-9a-fA-F]+)+$`);

/**
 * A UUID-like token in lower and upper case: servers compare it without regard to case and may
 * echo it in either (an error upper-casing what it quotes). Its dashes keep it out of the hex
 * runs that secretHexForms' forms are matched in any case within, so both cases are forms of
 * their own (a mixed-case echo is not: no server writes one).
 */
function dashedHexCases(text: string): string[] {
  return DASHED_HEX.test(text) ? [text.toLowerCase(), text.toUpperCase()] : [];
}

/**
 * Hex of each text's bytes, lower case (and a secret of hex digits itself): the masker matches
 * them in any case (`6A6b...` too), and inside a longer encoding (hex is byte-aligned). Kept apart from the other forms: only hex
 * digits, so they are looked for only in a run of hex digits as long as the shortest of them
 * (hasHexRun, hexRuns): in the raw text, and in a text's view only in a run the view joined or
 * decoded (split by a zero-width space, say: runner/mask-views.ts).
 */
export function secretHexForms(secret: string): string[] {
  const encoded = textsOf(secret).map((text) => Buffer.from(text).toString('hex'));
  // A secret of hex digits (an API token) is read without regard to case, as servers compare it and
  // may echo it (an error upper-casing what it quotes): it is a hex form itself, masked in any case.
  return unique(HEX_SECRET.test(secret) ? [secret.toLowerCase(), ...encoded] : encoded);
}

/** A secret that is a hex form itself: hex digits only, as long as a run of them is looked for in. */
const HEX_SECRET = new RegExp(`^[0-9a-fA-F]{${2 * MIN_LENGTH},}$`);

/** A run of hex digits as long as the shortest hex form (2 × MIN_LENGTH). */
const HEX_RUN = new RegExp(`[0-9a-fA-F]{${2 * MIN_LENGTH}}`);

/** Whether `text` may hold a hex form: a run of hex digits at least 2 × MIN_LENGTH long. */
export function hasHexRun(text: string): boolean {
  return HEX_RUN.test(text);
}

/**
 * The runs of hex digits in `text` long enough to hold a hex form: [from, to), one at a time. A
 * 50 MB update report holds a checksum on each of its 600,000 lines: their list, with a match
 * object each, was 55 MiB at the run's peak (bench: memory), so none is kept past its turn.
 */
export function* hexRuns(text: string): Generator<[number, number]> {
  // Its own lastIndex: two texts may be walked at once (a view's, then its raw text's).
  const runs = new RegExp(HEX_RUNS);
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) yield [m.index, runs.lastIndex];
}
const HEX_RUNS = new RegExp(`[0-9a-fA-F]{${2 * MIN_LENGTH},}`, 'g');

/**
 * A secret, trimmed, and each line of a multi-line one; each past ASCII also in its other Unicode
 * normal forms (NFC, NFD: `ü` as one character or as `u` and a combining diaeresis), which a server
 * may echo it in (a directory, a macOS-made file): the same text to a reader, others to a search.
 */
function textsOf(secret: string): string[] {
  const texts = [secret.trim()];
  if (/[\r\n]/.test(texts[0]!))
    for (const line of secret.split(/\r?\n/)) if (line.trim().length >= MIN_LENGTH) texts.push(line.trim());
  return texts.flatMap((text) =>
    /[\u0080-\uffff]/.test(text) ? [...new Set([text, text.normalize('NFC'), text.normalize('NFD')])] : [text],
  );
}

const unique = (forms: string[]) => [...new Set(forms)].filter((f) => f.length >= MIN_LENGTH);

/**
 * Base64 of a text, standard and URL-safe, with and without padding, and inside a longer encoding
 * (`user:password`, a token in a JSON blob): at each of the three byte offsets, the characters
 * that depend on the text alone.
 */
function base64Forms(text: string): string[] {
  const bytes = Buffer.from(text);
  const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');
  const padded = bytes.toString('base64');
  const unpadded = padded.replace(/=+$/, '');
  const out = [padded, urlSafe(padded), unpadded, urlSafe(unpadded)];
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const core = encoded.slice([0, 2, 3][shift], (shift + bytes.length) % 3 === 0 ? undefined : -1);
    if (shift === 0 || core.length >= 6) out.push(core, urlSafe(core));
  }
  return out;
}

/**
 * The spellings a CI system's own log masking is told: every form the masker looks for as written
 * (each text, its base64 in every spelling and at every offset, its hex in lower and upper case:
 * a runner matches a registered value exactly, so a mixed-case hex is left to the masker), and
 * the secret JSON-, URL- and HTML-escaped. GitHub's runner derives standard base64 (at each
 * offset) and some escapes of each value itself, but no hex nor URL-safe or unpadded base64.
 */
export function ciForms(secret: string): string[] {
  const hex = secretHexForms(secret);
  const html = secret
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
  return unique([
    ...secretForms(secret),
    ...hex,
    ...hex.map((h) => h.toUpperCase()),
    JSON.stringify(secret).slice(1, -1),
    ...urlEncoded(secret),
    html,
  ]);
}

/** The secret URL-encoded; none for one JavaScript cannot encode (a lone surrogate: URIError), which no client sends so. */
function urlEncoded(secret: string): string[] {
  try {
    return [encodeURIComponent(secret)];
  } catch {
    return [];
  }
}
