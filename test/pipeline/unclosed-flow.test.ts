// A `{` or `[` left open is told as what it is: the YAML library reports it at the next line that
// is not indented past the collection ("Flow map in block collection must be sufficiently
// indented"), as BAD_INDENT, which read as an indentation mistake between two keys at the same
// column ("`uses:` starts at column 5, but `with:` above it at column 5"). validate names the
// bracket, where it was opened, and says to close it; exit 2.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

async function validate(text: string): Promise<{ code: number | null; stderr: string; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-unclosed-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, text);
  const r = await runCli(['validate', file]);
  return { code: r.code, stderr: r.stderr, file };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const [open, close, kind, value] of [
  ['{', '}', 'mapping', '{ fail-on: critical'],
  ['[', ']', 'list', '[critical, high'],
] as const) {
  test(`validate: an unclosed ${open} followed by a step is told as unclosed, where it was opened, not as an indentation mistake`, async () => {
    const r = await validate(`version: 1\nsteps:\n  - uses: monitoring/alerts\n    with: ${value}\n  - uses: assert\n`);
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /starts at column|indent `uses:`|sufficiently indented/);
    assert.match(
      r.stderr,
      new RegExp(
        `^${escape(r.file)}:4:11 this \`${escape(open)}\` is never closed: the ${kind} it opens on line 4 has no \`${escape(close)}\` before line 5\\n {2}4 \\| {5}with: ${escape(value)}\\n {4}\\| {11}\\^\\n`,
        'm',
      ),
    );
    assert.match(r.stderr, new RegExp(`hint: close it with \`${escape(close)}\` \\(at the end of line 4\\)`));
    assert.match(r.stderr, /1 problem\(s\) in/);
  });
}

test('validate: an unclosed { on the last line is told the same way', async () => {
  const r = await validate('version: 1\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: critical\n');
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `^${escape(r.file)}:4:11 this \`\\{\` is never closed: the mapping it opens on line 4 has no \`\\}\``,
      'm',
    ),
  );
});

test('validate: two keys at different columns are still an indentation mistake', async () => {
  const r = await validate('version: 1\nsteps:\n  - uses: monitoring/alerts\n with:\n      fail-on: critical\n');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /:4:2 `with:` starts at column 2, but `uses:` above it at column 5/);
});
