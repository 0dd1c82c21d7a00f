// A dry run sends nothing and writes nothing: an output, a journal, a resume or a webhook asked of it
// is refused (BAD_ARGUMENTS, exit 2), not silently left out (a CI job asking for --report-json got
// no artifact and a green exit).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('run --dry-run with --journal, a report, --dotenv, --webhook or --resume is refused, naming both, and writes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-dry-outputs-'));
  const env = { PROD_TOKEN: 'prod-token', STAGING_TOKEN: 'staging-token' };
  for (const [flag, value] of [
    ['--journal', join(dir, 'j.jsonl')],
    ['--report-json', join(dir, 'r.json')],
    ['--summary', join(dir, 's.md')],
    ['--dotenv', join(dir, 'o.env')],
    ['--webhook', 'http://127.0.0.1:9/hook'],
    ['--resume', join(dir, 'j.jsonl')],
  ] as const) {
    const r = await runCli(['run', 'pipelines/demo.yml', '--emulator', '--dry-run', flag, value], { env });
    assert.equal(r.code, 2, `${flag}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`run: --dry-run and ${flag} do not go together`));
    assert.doesNotMatch(r.stdout, /dry run of/);
  }
  for (const f of ['j.jsonl', 'r.json', 's.md', 'o.env']) assert.ok(!existsSync(join(dir, f)), `${f} written`);
});
