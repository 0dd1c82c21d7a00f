// An option that takes one value, given twice, is refused (BAD_ARGUMENTS, exit 2) before anything
// runs: the last one silently won, so an operator who read the first --journal resumed later from
// a file the run never wrote. Options that take several (--var, --only, --fault) still do.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('--journal, --report-json given twice are refused before anything runs; --var twice is taken', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-args-once-'));
  const env = { PROD_TOKEN: 'prod-token', STAGING_TOKEN: 'staging-token' };
  for (const flag of ['--journal', '--report-json']) {
    const [a, b] = [join(dir, `a${flag}`), join(dir, `b${flag}`)];
    const r = await runCli(['run', 'pipelines/demo.yml', '--emulator', flag, a, flag, b], { env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, new RegExp(`run: ${flag} is given more than once`));
    assert.ok(!existsSync(a) && !existsSync(b), 'nothing written');
  }
  const schema = await runCli(['plan', 'pipelines/demo.yml', '--emulator', '--var', 'a=1', '--var', 'b=2'], { env });
  assert.doesNotMatch(schema.stderr, /given more than once/);
});

test('schema takes no argument and one of --report or --inventory: a stray word or both are refused (exit 2), not ignored', async () => {
  for (const args of [
    ['schema', 'extra'],
    ['schema', '--report', '--inventory'],
  ]) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '', 'no schema printed');
  }
});
