// --dotenv into a directory that does not exist yet is created, as --report-json's is: a CI job
// that writes its outputs under reports/ gets them whatever was there before.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('--dotenv into a missing directory creates it, as --report-json does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dotenv-'));
  const dotenv = join(dir, 'reports', 'ci', 'outputs.env');
  const r = await runCli([
    'run',
    'pipelines/demo.yml',
    '--emulator',
    '--dotenv',
    dotenv,
    '--report-json',
    join(dir, 'other', 'report.json'),
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(dotenv), r.stderr);
  assert.match(readFileSync(dotenv, 'utf8'), /^[A-Z0-9_]+=/m);
});
