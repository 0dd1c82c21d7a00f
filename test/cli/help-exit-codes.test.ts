// enginectl --help names every exit code the error table gives (docs/error-codes.md): it left out 3
// (a drift audit that could not read a site) and 69 (a shard's worker that sent nothing, to run again).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test("enginectl --help's exit codes are every one docs/error-codes.md's table gives, and 130/143", async () => {
  const table = readFileSync(new URL('../../docs/error-codes.md', import.meta.url), 'utf8');
  const codes = new Set([...table.matchAll(/^\| `[A-Z_]+` \| (\d+) \|/gm)].map((m) => m[1]!));
  const r = await runCli(['--help']);
  assert.equal(r.code, 0);
  const line = r.stdout.slice(r.stdout.indexOf('Exit codes:'));
  for (const code of [...codes, '130', '143']) assert.match(line, new RegExp(`\\b${code}\\b`), `exit code ${code}`);
});
