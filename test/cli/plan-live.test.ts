// plan --live, the preflight: read-only steps run for real, once and without waiting, through
// clients that send GET requests only, whatever a step or the server does; every write shown and
// not sent; what the reads found feeds the steps after them.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngineClient } from '../../src/api/index.ts';
import { runCli } from '../helpers/cli.ts';
import { rejection, startEmulator } from '../helpers/emulator.ts';

const TOKENS = { PROD_TOKEN: 'prod-token', STAGING_TOKEN: 'staging-token' };

test('plan --live says what each gate finds now (holds, would wait, FAILS NOW) and sends GET requests only', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.state.alerts.push({
    severity: 'critical',
    code: 'replica_lag',
    message: 'REPLICA-2 is 3 hours behind',
    engineId: 'eng-prod-02',
  });
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...TOKENS };
  const r = await runCli(['plan', 'pipelines/demo.yml', '--live'], { env });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^live plan of "Release 2026\.11 \(demo\)": GET requests only; no write is sent$/m);
  assert.match(
    r.stdout,
    /\[1\/9\] No critical alerts[\s\S]*?now: FAILS NOW: 1 alert\(s\) at or above critical: critical replica_lag on eng-prod-02/,
  );
  assert.match(r.stdout, /\[2\/9\] Engines online[\s\S]*?now: holds: 4 online/);
  assert.match(
    r.stdout,
    /\[3\/9\] Drain user sessions[\s\S]*?now: would wait: at most 0 active session\(s\): 4 active/,
  );
  assert.match(r.stdout, /\[4\/9\] Clear the transaction log[\s\S]*?now: not sent: a write/);
  // A write shows what it would change, read now: the Engines of the target and their versions.
  assert.match(
    r.stdout,
    /\[7\/9\] System update \(target=prod\)[\s\S]*?now: not sent: a write; the Engines of PROD: eng-prod-01 26\.10\.3 -> 26\.11\.0, eng-prod-02 26\.10\.3 -> 26\.11\.0/,
  );
  assert.match(
    r.stdout,
    /\[6\/9\] Reports and templates[\s\S]*?now: not sent: a write; the target's vfs files cannot be read through the API/,
  );
  // A check after the writes checks their effect: not a failure now.
  assert.match(
    r.stdout,
    /\[8\/9\] Every Engine runs the release[\s\S]*?now: after the writes above, checked now: not yet: /,
  );
  assert.match(r.stdout, /^1 step run\(s\) fail now, 1 would wait$/m);
  assert.ok(emulator.requests.length > 0);
  assert.deepEqual(
    emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'only GET requests reached the server',
  );
  assert.doesNotMatch(r.stdout, /prod-token|staging-token/);

  // Nothing fails now once the alert is gone: exit 0.
  emulator.state.alerts = emulator.state.alerts.filter((a) => a.severity !== 'critical');
  const clear = await runCli(['plan', 'pipelines/demo.yml', '--live'], { env });
  assert.equal(clear.code, 0, clear.stdout);
  assert.match(clear.stdout, /^0 step run\(s\) fail now, 1 would wait$/m);
});

test('plan --live feeds what a read found to the steps after it, and never sends a write, not even a raw POST', async (t) => {
  const { url, emulator } = await startEmulator(t, { faults: [{ path: '/api/monitoring/v1/engines', status: 500 }] });
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-live-')), 'p.yml');
  writeFileSync(
    file,
    `version: 1
steps:
  - id: find
    uses: classes/query
    with: { class: 12, where: { iname: jdoe } }
  - uses: classes/update
    with: { class: 12, id: "\${{ steps.find.outputs.entities[0].ikey }}", fields: { iemailaddress: jdoe@example.org } }
  - uses: api/request
    with: { method: POST, path: /api/devops/v1/transaction-log/clear }
  - uses: monitoring/engines
    with: { min-online: 1 }
`,
  );
  const r = await runCli(['plan', file, '--live'], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.match(r.stdout, /\[1\/4\][\s\S]*?now: holds/);
  // The entity the query found is the one the update would change: its key, not a placeholder.
  assert.match(r.stdout, /PATCH \/api\/classes\/v1\/classes\/12\/entities\/2001\n/);
  // ... and what it would change: the field now -> the value written.
  assert.match(r.stdout, /now: not sent: a write; iemailaddress "john\.doe@example\.com" -> "jdoe@example\.org"/);
  assert.match(r.stdout, /\[3\/4\] [^\n]*\(api\/request\)[\s\S]*?now: not sent/);
  // A failing read is told, after the writes as a check of their effect.
  assert.match(r.stdout, /\[4\/4\][\s\S]*?now: after the writes above, checked now: not yet: .*HTTP 500/);
  assert.deepEqual(
    emulator.requests.filter((q) => q.method !== 'GET'),
    [],
    'only GET requests reached the server',
  );
});

test('a read-only client refuses anything but GET before it leaves', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const client = new EngineClient({ url, username: 'admin', password: 'admin' }, { readOnly: true });
  t.after(() => client.close());
  const refused = await rejection(client.request({ method: 'POST', path: '/api/devops/v1/transaction-log/clear' }));
  assert.equal(refused.code, 'API_READ_ONLY');
  assert.match(refused.message, /not sent: this client sends GET requests only/);
  assert.equal((await client.request({ method: 'GET', path: '/api/monitoring/v1/alerts' })).status, 200);
  assert.deepEqual(
    emulator.requests.map((q) => q.method),
    ['GET'],
  );
});
