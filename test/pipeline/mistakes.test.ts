// The messages a newcomer meets for typical mistakes, pinned: `enginectl validate` on each file
// of test/fixtures/mistakes/ (the CLI process), against test/fixtures/golden/mistakes.txt. Each
// is exit 2, at the line of the mistake, in the pipeline's words (never a library's: no
// "undefined", "record", "compact mappings"), with a hint that says what to write.
// UPDATE_GOLDEN=1 npm test rewrites the golden file (review the diff).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const DIR = 'test/fixtures/mistakes';
const GOLDEN = 'test/fixtures/golden/mistakes.txt';

test('validate: every typical mistake is told at its line, in plain words, with what to write (golden)', async () => {
  const parts: string[] = [];
  for (const name of readdirSync(DIR)
    .filter((f) => f.endsWith('.yml'))
    .sort()) {
    const r = await runCli(['validate', join(DIR, name)]);
    assert.equal(r.code, 2, `${name}: ${r.stdout}${r.stderr}`);
    assert.doesNotMatch(r.stderr, /undefined|\brecord\b|compact mapping|Invalid input|NaN|\n\s+at /, name);
    assert.match(r.stderr, /\n {2}hint: /, `${name} has a hint`);
    parts.push(`$ enginectl validate ${join(DIR, name)}\n${r.stderr}`);
  }
  const text = parts.join('\n');
  if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, text);
  assert.equal(
    text,
    readFileSync(GOLDEN, 'utf8'),
    'the messages changed: if intended, UPDATE_GOLDEN=1 npm test and review the diff',
  );
});
