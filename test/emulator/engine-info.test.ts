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

test("every sample Engine's name is not its instanceId nor its host name; engines/{engineId} takes the instanceId only", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const engines = emulator.state.engines;
  assert.ok(engines.length > 1);
  for (const engine of engines) {
    const { instanceId, name, hostName } = engine as Record<string, unknown>;
    assert.equal(typeof name, 'string');
    assert.notEqual(name, instanceId, `${String(instanceId)}: name and instanceId are separate fields (api 2.7)`);
    assert.notEqual(name, hostName, `${String(instanceId)}: name and hostName are separate fields (api 2.7)`);
    assert.equal((await get(url, `/engines/${encodeURIComponent(String(instanceId))}`)).status, 200);
    for (const path of ['', '/sessions', '/alerts']) {
      const byName = await get(url, `/engines/${encodeURIComponent(String(name))}${path}`);
      assert.equal(byName.status, 404, `engines/{name}${path} of ${String(instanceId)}`);
    }
  }
  assert.equal(new Set(engines.map((e) => e.name)).size, engines.length, 'names are distinct');
});
