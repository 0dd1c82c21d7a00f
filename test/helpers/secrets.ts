// The forms a secret takes once a server or a renderer has encoded it, written here independently
// of the product's masker, and a scan of a channel (a log, a report file) for any of them.
import assert from 'node:assert/strict';
import { characterEntities } from 'character-entities';

const namesOf = new Map<string, string>();
for (const [name, value] of Object.entries(characterEntities))
  if (!namesOf.has(value) && /^[a-z]+$/i.test(name)) namesOf.set(value, name);

const bytes = (s: string) => [...Buffer.from(s)];
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const chars = (s: string) => [...s];

/** Each encoding a server may echo a secret in, by name: the table the encoding test walks. */
export const ENCODINGS: Readonly<Record<string, (secret: string) => string>> = {
  plain: (s) => s,
  'JSON-escaped': (s) => JSON.stringify(s).slice(1, -1),
  'JSON-escaped, \\/ and \\u (as PHP writes it)': (s) =>
    chars(s)
      .map((c) =>
        c === '/'
          ? '\\/'
          : c.charCodeAt(0) > 126
            ? [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')
            : JSON.stringify(c).slice(1, -1),
      )
      .join(''),
  'URL-encoded, upper-case hex': (s) => encodeURIComponent(s),
  'URL-encoded, lower-case hex': (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  'URL-encoded, every byte': (s) =>
    bytes(s)
      .map((b) => `%${b.toString(16).padStart(2, '0')}`)
      .join(''),
  'form-encoded, + for space': (s) => new URLSearchParams({ k: s }).toString().slice(2),
  base64: b64,
  'base64 without padding': (s) => b64(s).replace(/=+$/, ''),
  'base64 URL-safe': (s) => b64url(s).padEnd(Math.ceil(b64url(s).length / 4) * 4, '='),
  'base64 URL-safe without padding': b64url,
  'base64 of a longer value, one byte in': (s) => b64(`x${s}!`),
  'base64 of a longer value, two bytes in': (s) => b64(`xy${s}!?`),
  'HTML, named references': (s) =>
    chars(s)
      .map((c) => (namesOf.has(c) && !/[\w\s-]/.test(c) ? `&${namesOf.get(c)};` : c))
      .join(''),
  'HTML, decimal references': (s) =>
    chars(s)
      .map((c) => `&#${c.codePointAt(0)};`)
      .join(''),
  'HTML, hex references': (s) =>
    chars(s)
      .map((c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`)
      .join(''),
  'HTML-escaped (&amp; &lt; &gt; &quot; &#39;)': (s) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
  'whitespace folded': (s) => s.replace(/\s+/g, ' ').trim(),
  'hex, lower case': (s) => Buffer.from(s).toString('hex'),
  'hex, upper case': (s) => Buffer.from(s).toString('hex').toUpperCase(),
  // Every other letter upper case: `6A6b...`, as neither all-lower nor all-upper.
  'hex, mixed case': (s) => {
    let letters = 0;
    return Buffer.from(s)
      .toString('hex')
      .replace(/[a-f]/g, (c) => (letters++ % 2 === 0 ? c.toUpperCase() : c));
  },
  // Hex with a zero-width space between each pair of digits: no reader sees them.
  'hex split by zero-width spaces': (s) =>
    Buffer.from(s)
      .toString('hex')
      .replace(/(..)(?=.)/g, '$1\u200B'),
  // MIME (and PEM) base64 of a longer body: lines of 76, the first break inside the secret's base64.
  'base64 of a longer value wrapped at 76 columns (MIME)': mime,
  // The same body URL-encoded (a form field, a query string): `%0D%0A`, `%2B`, `%2F`, `%3D`.
  'base64 wrapped at 76 columns (MIME), URL-encoded': (s) => encodeURIComponent(mime(s)),
  // ... and HTML-escaped as an encoder that escapes every sign does: `&#13;&#10;`, `&#x2B;`, `&#x2F;`, `&#x3D;`.
  'base64 wrapped at 76 columns (MIME), HTML-escaped': (s) =>
    mime(s).replace(/[\r\n+/=]/g, (c) =>
      c === '\r' || c === '\n' ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`,
    ),
};

/** Base64 of a longer body holding `s`, in lines of 76 (MIME), the first break inside the secret's base64. */
function mime(s: string): string {
  return b64(`${'w'.repeat(55)}${s}${'z'.repeat(30)}`)
    .match(/.{1,76}/g)!
    .join('\r\n');
}

/** A line break between base64 characters, as written or escaped (JSON, XML). */
const WRAP = /(?<=[A-Za-z0-9+/=])(?:\r?\n|\\r\\n|\\n|&#13;|&#xD;|&#10;|&#xA;)+[ \t]*(?=[A-Za-z0-9+/=])/gi;

/**
 * Where `form` is in `text` (-1: nowhere), and the text it was found in: a form holding line
 * breaks (wrapped base64) is also looked for in the text with the line breaks inside its base64
 * runs removed, however the channel writes them.
 */
export function findForm(text: string, form: string): { at: number; in: string } {
  const at = text.indexOf(form);
  if (at !== -1 || !/[\r\n]/.test(form)) return { at, in: text };
  const unwrapped = text.replace(WRAP, '');
  return { at: unwrapped.indexOf(form.replace(/\r?\n/g, '')), in: unwrapped };
}

/** Every form of `secret`, and of each line of a multi-line one. */
export function secretForms(secret: string): string[] {
  const all: string[] = [];
  const parts = [secret, ...(secret.includes('\n') ? secret.split('\n').filter((l) => l.trim().length > 3) : [])];
  for (const part of parts) for (const encode of Object.values(ENCODINGS)) all.push(encode(part));
  return [...new Set(all)].filter((f) => f.length >= 4);
}

export function assertClean(channel: string, text: string, secrets: string[]): void {
  for (const secret of secrets) {
    for (const form of secretForms(secret)) {
      const { at, in: seen } = findForm(text, form);
      assert.equal(
        at,
        -1,
        `${channel} holds a form of a secret ("${form.slice(0, 6)}…") near: ${JSON.stringify(seen.slice(Math.max(0, at - 40), at + 40))}`,
      );
    }
  }
}

/**
 * Characters a reader never sees, which join the text around them again: every default-ignorable
 * code point (zero-width, soft hyphen, joiners, bidi marks and controls, fillers, variation
 * selectors, tags) and NUL.
 */
// eslint-disable-next-line no-control-regex
export const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u0000]/gu;

/**
 * Text as a terminal shows it once printed raw (`cat`, or `jq -r` of a JSON file: its `\u001b`
 * escapes of controls are controls again): every escape sequence (CSI, 7- or 8-bit; OSC, DCS,
 * SOS, PM and APC strings up to BEL or ST; ESC and a final character) and every invisible
 * character gone. Written here from ECMA-48, independently of the product's masker.
 */
export function terminalText(text: string): string {
  return text
    .replace(/\\(?:u00([01][0-9a-fA-F]|[89][0-9a-fA-F]|7[fF])|(\\))/g, (whole, code?: string, backslash?: string) =>
      code ? String.fromCharCode(parseInt(code, 16)) : (backslash ?? whole),
    )
    .replace(
      // eslint-disable-next-line no-control-regex
      /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^]*?(?:\x07|\x1b\\|\x9c)|\x1b[ -/]*[0-~]/g,
      '',
    )
    .replace(INVISIBLE, '');
}

/** HTML as a browser shows it: no tags, scripts or styles; every character reference decoded. */
export function pageText(html: string): string {
  return decodeReferences(html.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '').replace(/<[^>]*>/g, ''));
}

export function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return characterEntities[ref] ?? whole;
    return String.fromCodePoint(
      ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10),
    );
  });
}
