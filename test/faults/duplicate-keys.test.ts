// An answer that names a key twice in one object (`{"success": true, …, "success": false}`) says
// two things: JSON.parse keeps the last, other readers the first (RFC 8259: "the behavior of
// software that receives such an object is unpredictable"). It is no answer to decide on: the
// step fails as an invalid response naming the key, and a write's fate is unknown (in doubt),
// never a refusal that a step's `retry` sends again. Before, the update's `success: false` (the
// last) was read as the server's refusal and the update sent a second time, though its report
// said it succeeded; and an alert's second `severity` hid its critical first one from the gate.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
steps:
  - id: alerts
    uses: monitoring/alerts
    continue-on-error: true
  - id: vfs
    uses: update/vfs
    retry: { attempts: 2, delay: 1s }
    with:
      target: { server: prod-db.example.com, database: PROD, token: prod-token }
      files: [1001]
`;

interface Report {
  steps: { id: string; outcome: string; error: { code: string; message: string } | null; inDoubt: unknown }[];
}

test('an answer naming a key twice in one object is an invalid response: a write in doubt, never sent again by retry', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'GET',
    path: '/api/monitoring/v1/alerts',
    status: 200,
    contentType: 'application/json',
    body: '[{"severity": "critical", "code": "disk_full", "message": "no space", "engineId": "eng-prod-01", "severity": "warning"}]',
  });
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 200,
    contentType: 'application/json',
    body: '{"success": true, "report": "# VFS update\\n\\n**Result:** succeeded\\n", "versions": [], "su\\u0063cess": false}',
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-duplicate-keys-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(at('p.yml'), PIPELINE);

  const r = await runCli(['run', at('p.yml'), '--journal', at('j.jsonl'), '--report-json', at('r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });

  assert.equal(r.code, 1, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as Report;
  assert.deepEqual(
    report.steps.map((s) => [s.id, s.outcome, s.error?.code, s.inDoubt !== null]),
    [
      ['alerts', 'failure', 'API_INVALID_RESPONSE', false],
      ['vfs', 'failure', 'API_INVALID_RESPONSE', true],
    ],
    r.stdout,
  );
  assert.match(report.steps[0]!.error!.message, /names "severity" twice in one object/);
  assert.match(report.steps[1]!.error!.message, /names "success" twice in one object/);
  assert.equal(
    emulator.requests.filter((q) => q.path === '/api/devops/v1/update/vfs').length,
    1,
    'a write whose answer is ambiguous is in doubt: retry does not send it again',
  );
});
