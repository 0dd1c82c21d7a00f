// duplicateKey finds a key named twice in one object, as JSON.parse reads keys (escapes undone),
// and nothing else: the same key in sibling or nested objects, in strings, in arrays is no duplicate.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duplicateKey, keysHeld, keysWritten, twiceNamed } from '../../src/api/duplicate-keys.ts';

test('duplicateKey: a key twice in one object, read as JSON.parse reads it; never across objects or inside strings', () => {
  const cases: [string, string | undefined][] = [
    ['{}', undefined],
    ['[]', undefined],
    ['"text"', undefined],
    ['{"a":1,"a":2}', 'a'],
    ['{"":1,"":2}', ''],
    ['[{"a":1},{"a":2}]', undefined],
    ['{"a":{"b":1},"b":2}', undefined],
    ['{"a":{"b":1,"b":2}}', 'b'],
    ['{"a":{},"a":1}', 'a'],
    ['[{}, {"a":1, "a":1}]', 'a'],
    ['{"a":[1,"a",{"a":"a"}],"b":"a"}', undefined],
    ['{"a\\"b":1,"a\\u0022b":2}', 'a"b'],
    ['{"x":"a\\\\","x\\\\":1}', undefined],
    ['{"x":"\\\\","x":1}', 'x'],
    ['{"k":"{\\"k\\":1,\\"k\\":2}"}', undefined],
    ['{"__proto__":1,"__proto__":2}', '__proto__'],
    [`{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')},"k7":0}`, 'k7'],
    [`{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')}}`, undefined],
  ];
  for (const [text, expected] of cases) {
    JSON.parse(text);
    assert.equal(duplicateKey(text), expected, text);
  }
});

test('twiceNamed counts keys to skip the walk, and says a key twice exactly when duplicateKey finds one: 5,000 random answers, half of them naming a key twice', () => {
  let seed = 20261205;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  // Keys and strings that look like structure: a quote, a colon, a brace, escapes of each. In half
  // of the answers none starts with a colon or holds a quote before one (times and URLs hold colons
  // after a letter or a digit, which are not counted).
  const plain = [
    'a',
    'b',
    'k',
    '__proto__',
    'a\\"b',
    'a\\u0022b',
    '10:30',
    'https://x',
    '{',
    '}',
    ',',
    '\\\\',
    'x\\n',
    '',
  ];
  let words = plain;
  const space = () => pick(['', ' ', '\n', '\t ', '\r\n']);
  const value = (depth: number, twice: boolean): string => {
    const kind = depth > 3 ? pick(['s', 'n']) : pick(['s', 'n', 'o', 'a', 'o']);
    if (kind === 's') return `"${pick(words)}"`;
    if (kind === 'n') return pick(['1', '-2.5e3', 'true', 'null']);
    if (kind === 'a')
      return `[${Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1, false)).join(',')}]`;
    const keys = [...new Set(Array.from({ length: Math.floor(random() * 5) }, () => pick(words)))];
    // A key named again is the same key only once its escapes are undone: `a\"b` and `a\u0022b` are one.
    if (twice && keys.length > 0) keys.push(pick(keys));
    const entries = keys.map((k) => `${space()}"${k}"${space()}:${space()}${value(depth + 1, false)}`);
    return `{${entries.join(',')}${space()}}`;
  };
  let named = 0;
  for (let i = 0; i < 5_000; i++) {
    const colons = random() < 0.5;
    words = colons ? [...plain, ':', ' :', '\\":', '\\" :'] : plain;
    const text = value(0, random() < 0.5);
    const parsed: unknown = JSON.parse(text);
    const expected = duplicateKey(text);
    const said = twiceNamed(text, parsed);
    assert.equal(said !== undefined, expected !== undefined, text);
    // Never fewer keys counted than held; and where no key is named twice and no string starts with
    // a colon or holds a quote before one, the counts agree and the walk is skipped.
    assert.ok(keysWritten(text) >= keysHeld(parsed), text);
    if (expected === undefined && !colons) assert.equal(keysWritten(text), keysHeld(parsed), text);
    if (said !== undefined) named++;
  }
  assert.ok(named > 500, `answers naming a key twice: ${named}`);
});
