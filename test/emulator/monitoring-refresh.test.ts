// Monitoring data is not real-time (api 1, 8.1: refreshed about every 2 minutes). A system update
// changes the Engines at once (the update's own report, a second update see it), but monitoring
// shows their new version and start only from the next refresh: a check straight after an update
// reads the old version, as it would on a real server, so a pipeline that forgets to wait fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const MINUTE = 60_000;

test("an Engine's new version shows in monitoring from the refresh after the update, not before", async (t) => {
  // 10 s past a refresh on the emulator's clock, which moves only when told: its real time stands
  // still (on the wall clock, on a loaded machine, 49 s on it could cross the refresh at 05:02:00Z).
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'), () => 0);
  const { url } = await startEmulator(t, { now: clock.now });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: basic, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    assert.equal(res.status, 200, path);
    return res.json() as Promise<{ instanceId: string; version: string; startedAt: number; updatedAt: number }[]>;
  };
  const staging = async () =>
    (await call('GET', '/api/monitoring/v1/engines')).find((e) => e.instanceId === 'eng-stg-01')!;
  const before = await staging();
  assert.equal(before.version, '26.10.3');
  await clock.sleep(MINUTE, new AbortController().signal);
  const update = (await call('POST', '/api/devops/v1/update/system', {
    targetDBName: 'STAGING',
    targetServer: 'staging-db.example.com',
    targetAuthToken: 'staging-token',
  })) as unknown as { report: string };
  assert.match(update.report, /eng-stg-01.*26\.11\.0.*yes/, "the update's report: restarted on the new version");
  // Straight after, and until the next refresh (05:02:00Z): as the last refresh read it.
  for (const wait of [0, 49_000]) {
    await clock.sleep(wait, new AbortController().signal);
    const shown = await staging();
    assert.deepEqual([shown.version, shown.startedAt], [before.version, before.startedAt], `${wait} ms after`);
  }
  await clock.sleep(1_000, new AbortController().signal);
  const refreshed = await staging();
  assert.equal(refreshed.version, '26.11.0', 'from the refresh at 05:02:00Z');
  assert.equal(refreshed.updatedAt, Date.parse('2026-03-10T05:02:00Z'));
  assert.ok(refreshed.startedAt > before.startedAt, 'restarted');
});
