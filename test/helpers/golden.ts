// Golden files under test/fixtures/golden/: what a person reads, pinned. UPDATE_GOLDEN=1 npm test
// rewrites them; review the diff before committing.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);

/** `actual` against the golden file `name` (a path under test/fixtures/golden/). */
export function golden(name: string, actual: string): void {
  const file = new URL(name, GOLDEN);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  let expected: string;
  try {
    expected = readFileSync(file, 'utf8');
  } catch {
    assert.fail(`golden file ${name} is missing: run UPDATE_GOLDEN=1 npm test and review it`);
  }
  assert.equal(
    actual,
    expected,
    `${name} changed: if the change is intended, run UPDATE_GOLDEN=1 npm test and review the diff`,
  );
}
