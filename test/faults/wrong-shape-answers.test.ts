// A big answer of the wrong shape (an alerts list of 10 MiB of `{}`, well under the 256 MiB
// answer limit) fails its step as an invalid response naming the first issues, and the run goes
// on and writes every report. Before, checking it built an issue, a path and a message for each
// of its 3.5 million elements: V8 ran out of heap (exit 134) and no report was written.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
steps:
  - uses: monitoring/alerts
    id: alerts
    continue-on-error: true
  - uses: update/system
    id: update
    continue-on-error: true
    with: { target: { server: prod-db.example.com, database: PROD, token: prod-token } }
  - uses: assert
    with: { that: "steps.alerts.outcome == 'failure' && steps.update.outcome == 'failure'" }
`;

test('a 10 MiB answer of the wrong shape fails its step naming the first issues; the run goes on and every report is written', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const elements = Math.ceil((10 * 1024 * 1024) / 3);
  const list = `[${Array.from({ length: elements }, () => '{}').join(',')}]`;
  assert.ok(list.length >= 10 * 1024 * 1024);
  emulator.faults.add({
    method: 'GET',
    path: '/api/monitoring/v1/alerts',
    status: 200,
    body: list,
    contentType: 'application/json',
  });
  // The same inside an object: an update result whose orphan records are 10 MiB of wrong ones.
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    status: 200,
    body: `{"success": true, "report": "done", "orphanRecords": ${list}}`,
    contentType: 'application/json',
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-wrong-shape-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'p.yml'), PIPELINE);
  const at = (f: string) => join(dir, f);
  const r = await runCli(
    [
      'run',
      at('p.yml'),
      '--journal',
      at('run.journal.jsonl'),
      '--report-json',
      at('r.json'),
      '--junit',
      at('r.xml'),
      '--summary',
      at('r.md'),
      '--html',
      at('r.html'),
    ],
    {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    },
  );
  // The update's answer was a 2xx it could not read: its write is in doubt, which continue-on-error
  // does not let pass (exit 1; the run went on).
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^✖ 1 step run\(s\) left a write in doubt: continue-on-error/m);
  assert.doesNotMatch(r.stderr, /internal error/);
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as {
    steps: { outcome: string; error: { code: string; message: string } | null }[];
  };
  assert.deepEqual(
    report.steps.map((s) => [s.outcome, s.error?.code]),
    [
      ['failure', 'API_INVALID_RESPONSE'],
      ['failure', 'API_INVALID_RESPONSE'],
      ['success', undefined],
    ],
  );
  const [alerts, update] = report.steps.map((s) => s.error?.message ?? '');
  assert.match(alerts!, /invalid response: response\[0\]\.severity: .*; response\[0\]\.code: .*and more/);
  assert.match(update!, /invalid response: response\.orphanRecords\[0\]\.tableName: .*and more/);
  for (const message of [alerts!, update!])
    assert.ok(message.length < 2000, `the message names the first issues, not all: ${message.length} characters`);
  for (const f of ['r.xml', 'r.md', 'r.html', 'run.journal.jsonl']) assert.ok(existsSync(at(f)), f);
});
