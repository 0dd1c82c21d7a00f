// The README's main-job command (npm run demo) runs to its end against the embedded emulator.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cleanEnv } from '../helpers/cli.ts';

test('scripts/demo-api.sh calls the four areas and exits 0', async () => {
  const script = fileURLToPath(new URL('../../scripts/demo-api.sh', import.meta.url));
  const { stdout } = await promisify(execFile)('bash', [script], { env: cleanEnv() });
  assert.match(stdout, /^emulator: http:\/\/127\.0\.0\.1:\d+ \(admin\/admin\)$/m);
  assert.match(stdout, /"code": "low_free_disk"/);
  assert.match(stdout, /"summary": "2 vfs file\(s\) on PROD: 1 inserted, 1 updated, 0 unchanged"/);
  assert.match(stdout, /"targetDatabase": "REPLICA-2"/);
  assert.match(stdout, /demo done: 5 API calls/);
});
