// The emulator routes a path as written: a trailing slash or an empty segment names no endpoint
// (404), so no spelling of a path reaches a handler past the scope check it is made for, and a
// client that builds such a path sees it fail here first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUserSpec } from '../../src/emulator/index.ts';
import { startEmulator } from '../helpers/emulator.ts';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

test('a trailing slash or a doubled slash is no endpoint: 404, and no scope is bypassed by it', async (t) => {
  const { url, emulator } = await startEmulator(t, { users: [parseUserSpec('devonly:pw:api.devops')] });
  // A write, so the transaction log holds a record to clear.
  const write = await fetch(`${url}/api/classes/v1/classes/21/entities/3001`, {
    method: 'PATCH',
    headers: { authorization: basic('admin', 'admin'), 'content-type': 'application/json' },
    body: JSON.stringify({ istatus: 'open' }),
  });
  assert.equal(write.status, 200, await write.text());
  const logged = emulator.state.iLog.length;
  const call = (method: string, path: string, user: string, password: string) =>
    fetch(`${url}${path}`, { method, headers: { authorization: basic(user, password) } });
  // As written, each is refused for its missing scope.
  assert.equal((await call('POST', '/api/devops/v1/transaction-log/clear', 'devonly', 'pw')).status, 403);
  assert.equal((await call('GET', '/api/licensing/v1/licenses', 'monitor', 'monitor')).status, 403);
  for (const [method, path, user, password] of [
    ['POST', '/api/devops/v1/transaction-log/clear/', 'devonly', 'pw'],
    ['POST', '/api/devops/v1//transaction-log/clear', 'devonly', 'pw'],
    ['GET', '/api//licensing/v1/licenses', 'monitor', 'monitor'],
    ['GET', '/api/licensing/v1/licenses/', 'monitor', 'monitor'],
    ['GET', '/api/monitoring/v1/engines/', 'admin', 'admin'],
  ] as const) {
    const res = await call(method, path, user, password);
    assert.equal(res.status, 404, `${method} ${path}`);
    await res.body?.cancel();
  }
  assert.equal(emulator.state.iLog.length, logged, 'the transaction log was not cleared');
  assert.ok(logged > 0, 'the sample state holds transaction log records to clear');
});
