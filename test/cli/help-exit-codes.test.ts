// enginectl --help names every exit code the error table gives (docs/error-codes.md): it left out 3
// (a drift audit that could not read a site) and 69 (a shard's worker that sent nothing, to run again),
// and the signals' codes the table's opening lists (130 SIGINT, 143 SIGTERM, 129 SIGHUP: run --help
// and --help left 129 out once SIGHUP became an interruption).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const table = readFileSync(new URL('../../docs/error-codes.md', import.meta.url), 'utf8');
/** The exit codes of signals, as docs/error-codes.md's opening gives them ("130 for SIGINT"). */
const signalCodes = [...table.matchAll(/\b(\d{3}) for SIG[A-Z]+/g)].map((m) => m[1]!);

test("enginectl --help's exit codes are every one docs/error-codes.md's table gives, and each signal's", async () => {
  const codes = new Set([...table.matchAll(/^\| `[A-Z_]+` \| (\d+) \|/gm)].map((m) => m[1]!));
  assert.deepEqual(signalCodes, ['130', '143', '129']);
  const r = await runCli(['--help']);
  assert.equal(r.code, 0);
  const line = r.stdout.slice(r.stdout.indexOf('Exit codes:'));
  for (const code of [...codes, ...signalCodes]) assert.match(line, new RegExp(`\\b${code}\\b`), `exit code ${code}`);
});

test("enginectl run --help's exit codes name each signal's", async () => {
  const r = await runCli(['run', '--help']);
  assert.equal(r.code, 0);
  const line = r.stdout.slice(r.stdout.indexOf('Exit codes:'));
  for (const code of signalCodes) assert.match(line, new RegExp(`\\b${code}\\b`), `exit code ${code}`);
});

test("enginectl verify --help and decide --help name each signal's exit code: a verify a signal cuts is an interruption", async () => {
  for (const command of ['verify', 'decide']) {
    const r = await runCli([command, '--help']);
    assert.equal(r.code, 0);
    const line = r.stdout.slice(r.stdout.indexOf('Exit codes:'));
    for (const code of signalCodes) assert.match(line, new RegExp(`\\b${code}\\b`), `${command}: exit code ${code}`);
  }
});
