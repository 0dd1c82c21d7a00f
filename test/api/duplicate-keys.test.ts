// duplicateKey finds a key named twice in one object, as JSON.parse reads keys (escapes undone),
// and nothing else: the same key in sibling or nested objects, in strings, in arrays is no duplicate.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duplicateKey } from '../../src/api/duplicate-keys.ts';

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
