// EngineInfo as monitoring answers it (api 2.7): the documented fields only, none of the
// emulator's own controls, and an Engine's name apart from its instanceId, so a client that
// takes one for the other fails here as it would on a real server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

/** The fields of EngineInfo, api 2.7. */
const DOCUMENTED = new Set([
  'updatedAt',
  'startedAt',
  'platform',
  'version',
  'mainDatabase',
  'hostAddress',
  'providerName',
  'name',
  'arch',
  'instanceId',
  'hostName',
  'osName',
  'freeDisk',
  'openSocketCount',
  'mainHttpPort',
  'usedVirtualMemory',
  'openFileCount',
  'paths',
  'applicationSessions',
  'alerts',
  'ports',
  'databases',
  'config',
  'memoryStats',
  'cpuInfo',
  'dbCache',
  'scheduler',
  'transactionLogger',
]);

async function get(url: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}/api/monitoring/v1${path}`, { headers: { authorization: basic } });
  return { status: res.status, body: await res.json() };
}

test('EngineInfo answers hold only the fields of api 2.7: no "reporting", on the list and on one Engine', async (t) => {
  const { url } = await startEmulator(t);
  const list = (await get(url, '/engines')).body as Record<string, unknown>[];
  assert.ok(list.length > 0);
  const one = (await get(url, `/engines/${String(list[0]!.instanceId)}`)).body as Record<string, unknown>;
  for (const info of [...list, one]) {
    const extra = Object.keys(info).filter((k) => !DOCUMENTED.has(k));
    assert.deepEqual(extra, [], `${String(info.instanceId)} answers fields api 2.7 does not name`);
  }
});
