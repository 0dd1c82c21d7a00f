// The update result as api 2.14 shows it: `options` echoes the request body (2.12) with every
// documented option, the ones not sent at their defaults as the samples show them (booleans
// false, credential fields empty strings, onlineIndexDrop and onlineIndexCreation null).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const prod = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };

async function update(url: string, kind: 'system' | 'vfs', body: unknown) {
  const res = await fetch(`${url}/api/devops/v1/update/${kind}`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, `${kind}: ${JSON.stringify(body)}`);
  return (await res.json()) as Record<string, unknown> & {
    success: boolean;
    options: Record<string, unknown>;
    stats: Record<string, unknown>;
  };
}

const CONNECTION = {
  targetDBName: 'PROD',
  targetServer: 'prod-db.example.com',
  targetAuthToken: '',
  targetUserName: '',
  targetPassword: '',
  sourceServer: null,
  sourceDBName: null,
  sourceUserName: '',
  sourcePassword: '',
  sourceAuthToken: '',
  recipients: null,
  messageComplement: null,
  trackingId: null,
  updateType: null,
};

test('a system update echoes every option of api 2.12: booleans not sent are false, credentials empty strings', async (t) => {
  const { url } = await startEmulator(t);
  const result = await update(url, 'system', { ...prod, disableEngineRestart: true, trackingId: 'T-1' });
  assert.deepEqual(result.options, {
    ...CONNECTION,
    trackingId: 'T-1',
    products: null,
    allowExclusiveProducts: false,
    ignoreOtherEngineServers: false,
    ignoreSystemRequirements: false,
    disableEngineUpdate: false,
    disableDatabaseSchemaUpdate: false,
    disableEngineRestart: true,
    preserveUnlicensedProducts: false,
    onlineIndexDrop: null,
    onlineIndexCreation: null,
  });
});

test('a vfs update echoes every option of api 2.13, succeeded or failed, with the same defaults', async (t) => {
  const { url } = await startEmulator(t);
  const expected = {
    ...CONNECTION,
    sourceServer: 'main-db.example.com',
    sourceDBName: 'MAIN',
    ignoreOtherEngineServers: false,
    disableDatabaseSchemaUpdate: false,
    disableEngineRestart: false,
    onlineIndexDrop: null,
    onlineIndexCreation: null,
    files: [1001],
    directories: null,
  };
  const body = { ...prod, sourceServer: 'main-db.example.com', sourceDBName: 'MAIN', sourceAuthToken: 'main-token' };
  const done = await update(url, 'vfs', { ...body, files: [1001] });
  assert.equal(done.success, true);
  assert.deepEqual(done.options, expected);
  const failed = await update(url, 'vfs', { ...body, files: [4242] });
  assert.equal(failed.success, false);
  assert.deepEqual(failed.options, { ...expected, files: [4242] });
});

test('a failed vfs result carries startedAt and finishedAt in its stats, as a succeeded one does (api 2.14)', async (t) => {
  const at = Date.parse('2026-03-10T05:00:00Z');
  const { url } = await startEmulator(t, { now: () => at });
  for (const body of [
    { ...prod, files: [1001] },
    { ...prod, files: [4242] },
    { ...prod, targetAuthToken: 'stolen', files: [1001] },
    { ...prod, targetDBName: 'NOWHERE', files: [1001] },
  ]) {
    const result = await update(url, 'vfs', body);
    assert.deepEqual(
      [result.stats.startedAt, result.stats.finishedAt],
      [at, at],
      `${JSON.stringify(body)} (success ${result.success})`,
    );
  }
});
