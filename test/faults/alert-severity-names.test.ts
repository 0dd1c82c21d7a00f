// An alert whose severity the client does not know ranks as critical (the spec lists `warning` and
// `critical` as "values seen", not all): the gate fails on it. Also when the unknown name is one
// a plain object inherits (`constructor`, `__proto__`, `toString`): before, those read the
// rank table's inherited members (a function, Object.prototype), compared as neither, and the
// `fail-on: critical` gate passed with "0 critical, 0 warnings" over alerts it should stop on.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

test('an alert of an unknown severity stops the gate, also one named like an inherited member (constructor, __proto__)', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'GET',
    path: '/api/monitoring/v1/alerts',
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify([
      { severity: 'constructor', code: 'disk_full', message: 'no space left', engineId: 'eng-prod-01' },
      { severity: '__proto__', code: 'db_down', message: 'database down', engineId: 'eng-prod-02' },
      { severity: 'toString', code: 'replica_lag', message: 'lagging', engineId: 'eng-prod-02' },
    ]),
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-severity-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(at('p.yml'), 'version: 1\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: critical }\n');
  const r = await runCli(['run', at('p.yml'), '--report-json', at('r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const step = (JSON.parse(readFileSync(at('r.json'), 'utf8')) as { steps: { error: { message: string } | null }[] })
    .steps[0]!;
  assert.match(
    step.error?.message ?? '',
    /^3 alert\(s\) at or above critical: constructor disk_full on eng-prod-01 .*__proto__ db_down .*toString replica_lag/,
  );
});
