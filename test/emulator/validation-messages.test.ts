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

test('each problem is told once: a body that is not an object, a list of the wrong type, a key that is not an integer', async (t) => {
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
  const prod = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };
  // Not "the target needs targetAuthToken ..." as well: a body that is not an object has no fields.
  assert.deepEqual(await post('/api/devops/v1/update/system', [prod]), [
    '(body): Invalid input: expected object, received array',
  ]);
  // Not "at least one of files or directories is required" as well: files is given, of the wrong type.
  assert.deepEqual(await post('/api/devops/v1/update/vfs', { ...prod, files: '1001' }), [
    'files: Invalid input: expected array, received string',
  ]);
  // A key of a license (api 2.4) is an integer, told as every integer field is, with the body's other problems.
  const license = { licenseeName: 'ACME Corp', expiration: '2027-12-31' };
  assert.deepEqual(
    await post('/api/licensing/v1/licenses/create', {
      ...license,
      licenseeId: 7,
      licenserKey: 7001.5,
      licenses: [{ productKey: 1.5, quantity: 1, type: 'C', extensions: [11.5] }],
    }),
    [
      'licenserKey: Invalid input: expected int, received number',
      'licenseeId: Invalid input: expected string, received number',
      'licenses[0].productKey: Invalid input: expected int, received number',
      'licenses[0].extensions[0]: Invalid input: expected int, received number',
    ],
  );
});
