// Monitoring data is refreshed about every 2 minutes (api 8.1): an alert raised on an Engine shows
// in monitoring from the next refresh, not at once. The emulator's raise-alert fault is such an
// alert: a pipeline whose alerts gate runs straight after the update (forgetting to wait for the
// refresh) passes, as it would on a real server, and the bug shows in the dry run; a gate run
// once the refresh has read the alert fails. Alerts a test or a state file sets are shown at once.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { parseFault } from '../../src/emulator/faults/index.ts';
import type { EmulatorOptions } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const MINUTE = 60_000;
const UPDATE = '/api/devops/v1/update/system';
const STAGING = { targetDBName: 'STAGING', targetServer: 'staging-db.example.com', targetAuthToken: 'staging-token' };
type Alert = { severity: string; code: string; engineId: string };

/** An emulator whose clock moves only when told: 10 s past a refresh of monitoring (05:00:10Z). */
async function emulatorAt(t: TestContext, options: EmulatorOptions = {}) {
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'), () => 0);
  const started = await startEmulator(t, { now: clock.now, ...options });
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${started.url}${path}`, {
      method,
      headers: { authorization: basic, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    assert.equal(res.status, 200, path);
    return res.json() as Promise<T>;
  };
  const codes = async () => (await call<Alert[]>('GET', '/api/monitoring/v1/alerts')).map((a) => a.code);
  const pass = (ms: number) => clock.sleep(ms, new AbortController().signal);
  return { ...started, clock, call, codes, pass, at: () => new Date(clock.now()).toISOString() };
}

const GATE = `  - id: alerts
    uses: monitoring/alerts
    with: { fail-on: critical }
`;

test('a pipeline whose alerts gate runs straight after the update passes, as on a real server; a run of the gate once the refresh read the alert fails', async (t) => {
  const site = await emulatorAt(t, { faults: [parseFault(`POST ${UPDATE} raise-alert=critical:disk_full`)] });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-alert-refresh-'));
  const pipeline = (name: string, steps: string) => {
    const file = join(dir, `${name}.yml`);
    writeFileSync(
      file,
      `version: 1
name: ${name}
targets:
  staging: { server: staging-db.example.com, database: STAGING, token: "\${{ secrets.STAGING_TOKEN }}" }
steps:
${steps}`,
    );
    return file;
  };
  const env = {
    ENGINE_URL: site.url,
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    STAGING_TOKEN: 'staging-token',
  };
  const release = pipeline(
    'release',
    `  - id: update
    uses: update/system
    with: { target: staging }
${GATE}`,
  );
  const straight = await runCli(['run', release], { env, clock: site.clock });
  assert.equal(
    straight.code,
    0,
    `the gate read monitoring before its refresh (${site.at()}): ${straight.stdout}${straight.stderr}`,
  );
  assert.equal(site.emulator.count('POST', UPDATE), 1);
  // Past the refresh at 05:02:00Z: the alert the update raised at 05:00:10Z is shown.
  await site.pass(2 * MINUTE);
  const later = await runCli(['run', pipeline('gate', GATE)], { env, clock: site.clock });
  assert.equal(later.code, 1, later.stdout + later.stderr);
  assert.match(later.stdout + later.stderr, /critical disk_full/);
});

test('an alert raised by the fault shows from the first refresh after it takes effect (after= too), on every monitoring route', async (t) => {
  const site = await emulatorAt(t, {
    faults: [parseFault(`POST ${UPDATE} raise-alert=critical:disk_full after=1m`)],
  });
  await site.call('POST', UPDATE, STAGING);
  // Takes effect at 05:01:10Z, read by the refresh at 05:02:00Z.
  await site.pass(MINUTE + 49_000);
  assert.ok(!(await site.codes()).includes('disk_full'), `not before the refresh (${site.at()})`);
  assert.ok(
    site.emulator.state.alerts.some((a) => a.code === 'disk_full'),
    'raised on the Engine at 05:01:10Z',
  );
  // The site's first Engine: neither its own alerts nor the Engine's record show it yet.
  const engineAlerts = async () => ({
    own: await site.call<Alert[]>('GET', '/api/monitoring/v1/engines/eng-main-01/alerts'),
    record: (await site.call<{ alerts: Alert[] }>('GET', '/api/monitoring/v1/engines/eng-main-01')).alerts,
  });
  assert.deepEqual(await engineAlerts(), { own: [], record: [] });
  await site.pass(1_000);
  assert.ok((await site.codes()).includes('disk_full'), `from the refresh (${site.at()})`);
  const { own, record } = await engineAlerts();
  assert.deepEqual(
    [own, record].map((list) => list.map((a) => [a.severity, a.code, a.engineId])),
    [[['critical', 'disk_full', 'eng-main-01']], [['critical', 'disk_full', 'eng-main-01']]],
  );
});

test("alerts a test's own hand or a state set in place sets are shown at once; with monitoringRefreshMs 0 the fault's too", async (t) => {
  const site = await emulatorAt(t, { faults: [parseFault(`POST ${UPDATE} raise-alert=critical:disk_full`)] });
  site.emulator.state.alerts.push({
    severity: 'critical',
    code: 'by_hand',
    message: 'a test',
    engineId: 'eng-main-01',
  });
  assert.ok((await site.codes()).includes('by_hand'));
  await site.call('POST', UPDATE, STAGING);
  assert.ok(!(await site.codes()).includes('disk_full'), 'the fault: from the next refresh');
  // The state, alert included, set in place of the last (a state file, PUT /_emulator/state): shown as it is.
  site.emulator.state = structuredClone(site.emulator.state);
  assert.ok((await site.codes()).includes('disk_full'), 'a state set in place is shown as it is');

  const atOnce = await emulatorAt(t, {
    monitoringRefreshMs: 0,
    faults: [parseFault(`POST ${UPDATE} raise-alert=critical:disk_full`)],
  });
  await atOnce.call('POST', UPDATE, STAGING);
  assert.ok((await atOnce.codes()).includes('disk_full'), 'monitoringRefreshMs 0: at once');
});
