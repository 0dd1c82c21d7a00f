// The masker's index of many secrets' forms (src/runner/form-index.ts) against the whole
// alternation it replaces: for random secrets (passwords, logins, tokens with white space,
// symbols, escapes, markup, non-ASCII and invisible characters, several lines) and random texts
// holding them in every encoding a server may echo (test/helpers/secrets.ts ENCODINGS), split,
// wrapped, escaped and among noise, a masker that always searches through the index and one that
// always searches the whole alternation give the same text, character for character, and the
// same value. The index only ever leaves out forms that match nowhere in a text, so any
// difference is a defect of the index: a missed key would show here as a secret left unmasked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Masker } from '../../src/runner/masker.ts';
import { ENCODINGS } from '../helpers/secrets.ts';

/** A small, seeded generator (mulberry32): every run tries the same cases. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = 'abcdefXYZ0123456789-_+/=:. *~`[]\\%&;#"\'<>é€\u200b\n\t';
const NOISE = [
  '**Result:** succeeded\n',
  '| Engine | Host |\n| --- | --- |\n',
  '[link](https://example.com/x)',
  '`code`',
  '&amp;&#45;%41\\u0041\\n',
  'deadbeefCAFE0123456789abcdef',
  'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n',
  ' \t\r\n',
  '\u200b\u00ad',
];

test('the index of forms masks every text and value exactly as the whole alternation does, and so does a masker that learnt the forms from another', () => {
  const next = random(48);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const word = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(next() * (max - min)) }, () => pick([...ALPHABET])).join('');
  const encodings = Object.values(ENCODINGS);
  let compared = 0;
  let masked = 0;
  for (let set = 0; set < 24; set++) {
    // Enough secrets that each alternation holds a few hundred forms; some share a beginning.
    const secrets = Array.from({ length: 4 + Math.floor(next() * 12) }, (_, i) =>
      next() < 0.3 ? `shared-prefix-${i}-${word(3, 12)}` : word(3, 20),
    );
    const indexed = new Masker({}, 0);
    const whole = new Masker({}, Number.POSITIVE_INFINITY);
    for (const [i, s] of secrets.entries()) {
      if (i % 3 === 0) {
        indexed.addLogin(`user${i}`, s, 'login');
        whole.addLogin(`user${i}`, s, 'login');
      } else {
        indexed.add(s);
        whole.add(s);
      }
    }
    // A masker that learns the forms of another (an --only run learns the file's, with the keys
    // found for them), after a secret of its own: it masks as the one that added them.
    const learnt = new Masker({}, 0);
    learnt.add(secrets[1]);
    learnt.learnFrom(indexed);
    for (let n = 0; n < 120; n++) {
      const parts = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
        const r = next();
        if (r < 0.45) return pick(encodings)(pick(secrets));
        if (r < 0.6) {
          // A secret cut in two by noise, markup or a line break.
          const s = pick(encodings)(pick(secrets));
          const at = Math.floor(next() * s.length);
          return `${s.slice(0, at)}${pick(['', '*', '_', '\u200b', '\n', '&shy;', '`', pick(NOISE)])}${s.slice(at)}`;
        }
        return next() < 0.5 ? pick(NOISE) : word(0, 30);
      });
      const text = parts.join(pick(['', ' ', '\n', '|', '"', ',']));
      const expected = whole.mask(text);
      assert.equal(indexed.mask(text), expected, `text ${JSON.stringify(text)}`);
      assert.equal(learnt.mask(text), expected, `learnt, text ${JSON.stringify(text)}`);
      const value = { [text.slice(0, 12)]: [text, { note: text.slice(3) }], n: 1 };
      assert.deepEqual(indexed.maskValue(value), whole.maskValue(value));
      compared++;
      if (expected !== text) masked++;
    }
  }
  // The cases are not vacuous: most texts hold a secret the whole alternation masks.
  assert.equal(compared, 24 * 120);
  assert.ok(masked > compared / 2, `${masked} of ${compared} texts masked`);
});
