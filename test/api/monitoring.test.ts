// The Monitoring API (enterprise-api.md 4.3) through the client, against the emulator over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rejection, startEmulator } from '../helpers/emulator.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

test('GET engines lists only Engines that reported within 5 minutes, in full EngineInfo shape', async (t) => {
  let now = NOW;
  const { client, emulator } = await startEmulator(t, { now: () => now });
  const engines = await client('monitor').monitoring.engines();
  assert.deepEqual(
    engines.map((e) => e.instanceId),
    ['eng-main-01', 'eng-prod-01', 'eng-prod-02', 'eng-stg-01'],
  );
  const e = engines[1]!;
  for (const field of [
    'paths',
    'ports',
    'databases',
    'config',
    'memoryStats',
    'cpuInfo',
    'dbCache',
    'scheduler',
    'transactionLogger',
  ]) {
    assert.ok(field in e, `EngineInfo has ${field}`);
  }
  assert.equal(e.applicationSessions?.length, 2);
  assert.ok(now - e.updatedAt <= 5 * 60_000);

  emulator.setEngineReporting('eng-prod-02', false);
  now += 4 * 60_000;
  assert.equal(
    (await client('monitor').monitoring.engines()).length,
    4,
    'still online 4 minutes after its last report',
  );
  now += 2 * 60_000;
  assert.deepEqual(
    (await client('monitor').monitoring.engines()).map((x) => x.instanceId),
    ['eng-main-01', 'eng-prod-01', 'eng-stg-01'],
  );
  assert.equal(
    (await client('monitor').monitoring.engine('eng-prod-02')).instanceId,
    'eng-prod-02',
    'an offline Engine is still found by id',
  );
});

test('Engine detail, sessions, one session and alerts; 404 for unknown Engine or session ids', async (t) => {
  const { client } = await startEmulator(t, { now: () => NOW });
  const m = client('monitor').monitoring;
  assert.equal((await m.engine('eng-prod-01')).mainDatabase, 'PROD');
  assert.deepEqual(
    (await m.engineSessions('eng-prod-01')).map((s) => s.sessionId),
    ['sess-1001', 'sess-1002'],
  );
  const session = await m.engineSession('eng-prod-01', 'sess-1002');
  assert.equal(session.userName, 'asmith');
  assert.equal(session.dropsAt, null);
  assert.deepEqual(
    (await m.engineAlerts('eng-prod-02')).map((a) => a.code),
    ['low_free_disk'],
  );
  for (const call of [
    m.engine('nope'),
    m.engineSessions('nope'),
    m.engineAlerts('nope'),
    m.engineSession('nope', 'sess-1001'),
  ]) {
    const error = await rejection(call);
    assert.equal(error.code, 'API_NOT_FOUND');
    assert.match(error.message, /Engine nope/);
  }
  assert.equal(
    (await rejection(m.engineSession('eng-prod-01', 'sess-1003'))).code,
    'API_NOT_FOUND',
    'a session of another Engine',
  );
});

test('global sessions and alerts; sessions past expiresAt are gone', async (t) => {
  let now = NOW;
  const { client } = await startEmulator(t, { now: () => now });
  const m = client('monitor').monitoring;
  assert.equal((await m.sessions()).length, 4);
  assert.equal((await m.session('sess-1004')).userName, 'admin');
  assert.deepEqual(
    (await m.alerts()).map((a) => a.severity),
    ['warning', 'warning'],
  );
  now += 31 * 60_000;
  assert.deepEqual(await m.sessions(), []);
  const error = await rejection(m.session('sess-1004'));
  assert.match(error.message, /session sess-1004 was not found/);
});

test('monitoring needs api.monitoring: admin has it, a user without it gets a 403 naming it', async (t) => {
  const { client } = await startEmulator(t, {
    users: [{ name: 'ops', password: 'pw', scopes: new Set(['api.devops']) }],
  });
  assert.equal((await client('admin').monitoring.alerts()).length, 2);
  const error = await rejection(client('ops', 'pw').monitoring.alerts());
  assert.equal(error.code, 'API_FORBIDDEN');
  assert.match(error.message, /requires the scope api\.monitoring/);
});
