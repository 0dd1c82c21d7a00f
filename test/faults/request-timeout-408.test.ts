// HTTP 408 (Request Timeout), from the server or a proxy in front of it, does not say what was
// done with the request: a write so answered is in doubt (fate.ts), and its hint says to check
// on the server, not that the server refused it. Before, the step said in one breath that the
// write was in doubt and (hint) "the server refused the request; its message says why".
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

test('a write answered 408 is in doubt, and its hint says to check on the server, not that it was refused', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 408,
    contentType: 'application/json',
    body: '{"status": 408, "error": "request_timeout", "message": "the request took too long"}',
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-408-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(
    at('p.yml'),
    `version: 1
steps:
  - uses: update/vfs
    with: { target: { server: prod-db.example.com, database: PROD, token: prod-token }, files: [1001] }
`,
  );
  const r = await runCli(['run', at('p.yml'), '--report-json', at('r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const step = (
    JSON.parse(readFileSync(at('r.json'), 'utf8')) as {
      steps: { error: { code: string; hint: string }; inDoubt: { status?: number } | null }[];
    }
  ).steps[0]!;
  assert.equal(step.error.code, 'API_HTTP_STATUS');
  assert.equal(step.inDoubt?.status, 408);
  assert.doesNotMatch(step.error.hint, /refused/, step.error.hint);
  assert.match(step.error.hint, /may have acted on it: check on the server before sending it again/);
});
