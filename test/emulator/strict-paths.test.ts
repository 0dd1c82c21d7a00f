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

test("a query string or a body where the contract states none is refused (400, saying so), not ignored: a client's filter that the API does not take, or a clear sent a body, fails here first; an entity list's filters are taken", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const call = (method: string, path: string, body?: string) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: basic('admin', 'admin'), ...(body ? { 'content-type': 'application/json' } : {}) },
      body,
    });
  const logged = emulator.state.iLog.length;
  for (const [method, path, body, says] of [
    ['GET', '/api/monitoring/v1/alerts?engine=eng-prod-01', undefined, 'takes no query string'],
    ['GET', '/api/monitoring/v1/engines?online=false', undefined, 'takes no query string'],
    ['POST', '/api/devops/v1/update/vfs?dry=1', JSON.stringify({ files: [1001] }), 'takes no query string'],
    ['POST', '/api/devops/v1/transaction-log/clear', JSON.stringify({ keep: 10 }), 'takes no request body'],
    ['POST', '/api/devops/v1/replication/sync', '{}', 'takes no request body'],
  ] as const) {
    const res = await call(method, path, body);
    assert.equal(res.status, 400, `${method} ${path}`);
    assert.match(((await res.json()) as { message: string }).message, new RegExp(says));
  }
  assert.equal(emulator.state.iLog.length, logged, 'the clear sent a body did not clear');
  const filtered = await call('GET', '/api/classes/v1/classes/21/entities?istatus=open');
  assert.equal(filtered.status, 200, await filtered.text());
});
