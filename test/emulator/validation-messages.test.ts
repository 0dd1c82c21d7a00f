// The emulator's 400s say what is wrong with a field: missing ("is required") or of the wrong type
// (what was expected and what came), so a client's bug is named as it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

test('a field of the wrong type is named as such, never as missing; a missing one is "required"', async (t) => {
  const { url } = await startEmulator(t);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 400, path);
    return ((await res.json()) as { details: { field: string; message: string }[] }).details.map((d) => d.message);
  };
  const target = { targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token', files: [1001] };
  assert.deepEqual(await post('/api/devops/v1/update/vfs', { ...target, targetDBName: 5 }), [
    'targetDBName: Invalid input: expected string, received number',
  ]);
  assert.deepEqual(await post('/api/devops/v1/update/vfs', target), ['targetDBName is required']);
  const system = await post('/api/devops/v1/update/system', {
    targetDBName: 'PROD',
    targetServer: 'prod-db.example.com',
    targetAuthToken: 'prod-token',
    recipients: ['ops@example.com'],
  });
  assert.deepEqual(system, ['recipients: Invalid input: expected string, received array']);
});
