// The depth check every answer meets (text/bounded-json.ts): nestsDeeper, the walk that allocates
// nothing, says what pathPast says (whether some object or array nests past the bound) for values
// at the bound, one past it, and with the deep branch anywhere among shallow ones.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nestsDeeper, pathPast } from '../../src/text/bounded-json.ts';

/** An array or object chain `depth` levels deep (1: one array or object). */
function chain(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = kind === 'array' ? [] : {};
  for (let i = 1; i < depth; i++) value = kind === 'array' ? [1, value, 'x'] : { a: 1, deeper: value, b: null };
  return value;
}

test('nestsDeeper agrees with pathPast at the bound, past it, and wherever the deep branch sits', () => {
  const values: unknown[] = [null, 1, 'text', [], {}, [null, 'a', 2]];
  for (const depth of [1, 2, 3, 4, 5, 6])
    for (const kind of ['array', 'object'] as const) {
      const deep = chain(depth, kind);
      values.push(deep, [deep], { left: [1, 2], right: deep }, [[], {}, { x: [deep] }], { [`__proto__`]: deep });
    }
  for (const max of [1, 2, 3, 4, 5])
    for (const value of values)
      assert.equal(nestsDeeper(value, max), pathPast(value, max) !== undefined, JSON.stringify({ max, value }));
});

test('nestsDeeper follows own keys only, and reads a sparse array without failing', () => {
  const inherited = Object.create({ deep: chain(10, 'object') }) as object;
  assert.equal(nestsDeeper({ own: inherited }, 3), false);
  const sparse: unknown[] = [];
  sparse[5] = chain(4, 'array');
  assert.equal(nestsDeeper(sparse, 4), true);
  assert.equal(nestsDeeper(sparse, 5), false);
});

test('nestsDeeper reaches the bounds the callers use (100 for answers, 1,000 for records read back)', () => {
  for (const max of [100, 1_000]) {
    assert.equal(nestsDeeper(chain(max, 'array'), max), false);
    assert.equal(nestsDeeper(chain(max + 1, 'array'), max), true);
    assert.equal(nestsDeeper(chain(max + 1, 'object'), max), true);
  }
});
