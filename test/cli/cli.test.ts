// The CLI as a process: help, version, usage errors, and exit codes from the contract.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { COMMAND_NAMES } from '../../src/cli/run-command.ts';
import { runCli } from '../helpers/cli.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

test('--version prints the package version', async () => {
  const r = await runCli(['--version']);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, `${pkg.version}\n`);
});

test('--help lists the commands; every command has its own --help', async () => {
  const main = await runCli(['--help']);
  assert.equal(main.code, 0);
  assert.match(main.stdout, /api METHOD PATH/);
  assert.match(main.stdout, /emulator/);
  // Every command: listed in the main help, and its own --help.
  for (const command of COMMAND_NAMES) {
    assert.match(main.stdout, new RegExp(`^  ${command}\\b`, 'm'), `the main help lists ${command}`);
    const r = await runCli([command, '--help']);
    assert.equal(r.code, 0, command);
    assert.match(r.stdout, new RegExp(`^Usage: enginectl ${command}`), command);
  }
  assert.equal(COMMAND_NAMES.length, 13);
});

test('an unknown command or flag is exit 2 with a hint and no stack trace', async () => {
  for (const args of [['deploy'], ['api', 'GET', '/x', '--colour'], ['emulator', '--port', 'eighty']]) {
    const r = await runCli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /^enginectl: /);
    assert.match(r.stderr, /hint: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});
