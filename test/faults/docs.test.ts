// docs/reliability.md names the test behind each guarantee: every file it names exists and every
// test title it quotes is a test of that file, so the page cannot drift from what is proved.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/reliability.md', root), 'utf8');

test('docs/reliability.md: every test file and test title it names exists', () => {
  const files = [...doc.matchAll(/`(test\/[^`]+\.test\.ts)`/g)].map((m) => m[1]!);
  assert.ok(new Set(files).size >= 7, `names the suites: ${[...new Set(files)].join(', ')}`);
  for (const file of files) assert.ok(existsSync(new URL(file, root)), `${file} exists`);
  const titled = [...doc.replace(/\n\s*/g, ' ').matchAll(/`(test\/[^`]+\.test\.ts)` › "([^"]+)"/g)];
  assert.ok(titled.length >= 4);
  for (const [, file, title] of titled) {
    const source = readFileSync(new URL(file!, root), 'utf8');
    assert.match(
      source,
      new RegExp(`(test|it|describe)\\(\\s*(\`|'|")${title!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      `${file} has a test "${title}"`,
    );
  }
});
