// A login page answered with a 2xx (an SSO proxy, a captive portal in front of the API) to a call
// that needs only its status (the transaction-log clear, a license added or removed) is not the
// API's word that it acted: the step fails as an invalid response and its write is in doubt, as
// the same page fails every call that reads JSON. Before, the clear and both license steps passed
// ("HTTP 200", "removed (200)") though the API never received them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PAGE =
  '<!DOCTYPE html><html><head><title>Sign in - Corp SSO</title></head><body><form action="/login">user, password</form></body></html>';

const PIPELINE = `version: 1
steps:
  - uses: transaction-log/clear
    continue-on-error: true
  - uses: licensing/add
    continue-on-error: true
    with: { code: "LICENSE-CODE-FOR-TEST" }
  - uses: licensing/remove
    continue-on-error: true
    with: { key: 2 }
`;

interface Report {
  steps: { uses: string; outcome: string; error: { code: string; message: string } | null; inDoubt: unknown }[];
}

test('a 2xx login page to a call that needs only its status fails the step as an invalid response, its write in doubt', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-login-page-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (f: string) => join(dir, f);
  writeFileSync(at('p.yml'), PIPELINE);
  // The page answers the writes; the API behind never sees them (the emulator's state is unchanged).
  for (const [method, path] of [
    ['POST', '/api/devops/v1/transaction-log/clear'],
    ['POST', '/api/licensing/v1/licenses'],
    ['DELETE', '/api/licensing/v1/licenses/2'],
  ] as const)
    emulator.faults.add({ method, path, status: 200, body: PAGE, contentType: 'text/html' });
  const licensesBefore = JSON.stringify(emulator.state.licenses);

  const r = await runCli(['run', at('p.yml'), '--journal', at('j.jsonl'), '--report-json', at('r.json')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });

  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(JSON.stringify(emulator.state.licenses), licensesBefore, 'the API received none of the writes');
  const report = JSON.parse(readFileSync(at('r.json'), 'utf8')) as Report;
  assert.deepEqual(
    report.steps.map((s) => [s.uses, s.outcome, s.error?.code, s.inDoubt !== null]),
    [
      ['transaction-log/clear', 'failure', 'API_INVALID_RESPONSE', true],
      ['licensing/add', 'failure', 'API_INVALID_RESPONSE', true],
      ['licensing/remove', 'failure', 'API_INVALID_RESPONSE', true],
    ],
    r.stdout,
  );
  for (const step of report.steps) assert.match(step.error!.message, /an HTML page: "Sign in - Corp SSO"/);
  assert.doesNotMatch(r.stdout, /<form/, 'the page is named by its title, never shown');
  assert.match(r.stdout, /in doubt: POST \/api\/devops\/v1\/transaction-log\/clear was sent and was answered 200/);
});

test('a 2xx labelled text/html that is no markup (PHP labels every answer so: empty, JSON) is no page: a status-only call succeeds on it', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/transaction-log/clear',
    status: 200,
    body: '',
    contentType: 'text/html; charset=UTF-8',
  });
  emulator.faults.add({
    method: 'POST',
    path: '/api/licensing/v1/licenses',
    status: 200,
    body: '{"added": 1}',
    contentType: 'text/html; charset=UTF-8',
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-empty-html-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'p.yml'),
    'version: 1\nsteps:\n  - uses: transaction-log/clear\n  - uses: licensing/add\n    with: { code: "LICENSE-CODE-FOR-TEST" }\n',
  );
  const r = await runCli(['run', join(dir, 'p.yml')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
});
