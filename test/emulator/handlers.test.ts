// The emulator's handlers in-process (no socket): authentication, routing, request validation,
// state files and its own settings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emulator, parseFault, parseState, parseUserSpec } from '../../src/emulator/index.ts';
import type { EmuRequest } from '../../src/emulator/http.ts';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function req(
  method: string,
  path: string,
  init: { body?: unknown; type?: string; auth?: string | null } = {},
): EmuRequest {
  const url = new URL(path, 'http://x');
  const headers: Record<string, string | undefined> = {};
  if (init.auth !== null) headers.authorization = init.auth ?? basic('admin', 'admin');
  if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
  const body = init.body === undefined ? '' : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  return { method, path: url.pathname, query: url.searchParams, headers, body };
}

const bodyOf = (res: { body?: string }) => JSON.parse(res.body ?? 'null');

test('401 without or with wrong credentials: JSON body and a Basic challenge', () => {
  const emulator = new Emulator();
  for (const auth of [null, basic('admin', 'nope'), 'Bearer abc']) {
    const res = emulator.handle(req('GET', '/api/monitoring/v1/engines', { auth }));
    assert.equal(res.status, 401);
    assert.match(res.headers!['www-authenticate']!, /^Basic realm=/);
    assert.equal(bodyOf(res).error, 'unauthorized');
  }
});

test('unknown routes are 404; a known path with another method is 405 with Allow', () => {
  const emulator = new Emulator();
  assert.equal(emulator.handle(req('GET', '/api/devops/v2/update/vfs')).status, 404);
  const res = emulator.handle(req('GET', '/api/devops/v1/update/vfs'));
  assert.equal(res.status, 405);
  assert.equal(res.headers!.allow, 'POST');
  const entity = emulator.handle(req('PUT', '/api/classes/v1/classes/12/entities'));
  assert.equal(entity.headers!.allow, 'GET, POST');
});

test('a 403 names every missing scope', () => {
  const emulator = new Emulator();
  const res = emulator.handle(
    req('POST', '/api/devops/v1/transaction-log/clear', { auth: basic('monitor', 'monitor') }),
  );
  assert.equal(res.status, 403);
  assert.deepEqual(
    bodyOf(res).details.map((d: { message: string }) => d.message),
    ['api.devops', 'system.clearTransactionLog'],
  );
});

test('bodies: wrong media type is 415, broken JSON is 400, keys must be integers', () => {
  const emulator = new Emulator();
  assert.equal(
    emulator.handle(
      req('POST', '/api/devops/v1/update/vfs', {
        body: 'targetDBName=PROD',
        type: 'application/x-www-form-urlencoded',
      }),
    ).status,
    415,
  );
  const broken = emulator.handle(req('POST', '/api/devops/v1/update/vfs', { body: '{"targetDBName":' }));
  assert.equal(broken.status, 400);
  assert.match(bodyOf(broken).message, /not valid JSON/);
  assert.equal(
    emulator.handle(req('POST', '/api/licensing/v1/licenses', { body: { code: 'x' } })).status,
    415,
    'a license code is text/plain',
  );
  assert.match(
    bodyOf(emulator.handle(req('GET', '/api/classes/v1/classes/abc/children'))).message,
    /classKey must be an integer key/,
  );
});

test('entity keys are unique across classes (409); iLog is written by the system only', () => {
  const emulator = new Emulator();
  const dup = emulator.handle(
    req('POST', '/api/classes/v1/classes/21/entities', { body: [{ ikey: 2001, iname: 'x' }] }),
  );
  assert.equal(dup.status, 409);
  const log = emulator.handle(req('POST', '/api/classes/v1/classes/90/entities', { body: [{ iname: 'x' }] }));
  assert.equal(log.status, 400);
  assert.match(bodyOf(log).message, /transaction log/);
  assert.equal(emulator.state.iLog.length, 0);
});

test('a create with several entities is refused; an update applies several objects in order', () => {
  const emulator = new Emulator();
  const many = emulator.handle(
    req('POST', '/api/classes/v1/classes/21/entities', { body: [{ iname: 'a' }, { iname: 'b' }] }),
  );
  assert.equal(many.status, 400);
  const upd = emulator.handle(
    req('PATCH', '/api/classes/v1/entities/3001', { body: [{ icustomer: 'A' }, { itotal: 5 }] }),
  );
  assert.equal(upd.status, 200);
  assert.deepEqual([bodyOf(upd).icustomer, bodyOf(upd).itotal], ['A', 5]);
});

test('--fault settings parse, and bad ones are usage errors that list the settings', () => {
  assert.deepEqual(parseFault('POST /api/devops/v1/update/vfs status=503 times=2'), {
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 503,
    times: 2,
  });
  assert.deepEqual(parseFault('/api/monitoring/* latency=2s reset=after'), {
    path: '/api/monitoring/*',
    latencyMs: 2000,
    reset: 'after',
  });
  assert.throws(
    () => parseFault('GET /x colour=red'),
    (e: Error & { exitCode: number; hint: string }) => e.exitCode === 2 && /latency=/.test(e.hint),
  );
  assert.throws(() => parseFault('GET'), /no path/);
  assert.throws(() => parseFault('/x status=9000'), /not an HTTP status/);
});

test('--user NAME:PASSWORD:SCOPES: passwords may hold colons; * is every scope; unknown scopes refused', () => {
  const u = parseUserSpec('deploy:a:b:api.devops,system.clearTransactionLog');
  assert.equal(u.password, 'a:b');
  assert.deepEqual([...u.scopes], ['api.devops', 'system.clearTransactionLog']);
  assert.equal(parseUserSpec('root:pw:*').scopes.size, 4);
  assert.equal(parseUserSpec('reader:pw:').scopes.size, 0);
  assert.throws(() => parseUserSpec('x:y:api.everything'), /unknown scope api\.everything/);
  assert.throws(() => parseUserSpec('nopassword'), /NAME:PASSWORD:SCOPES/);
});

test('a state file round-trips; a broken one is a usage error that names the field', () => {
  const first = new Emulator();
  first.handle(req('PATCH', '/api/classes/v1/entities/2001', { body: [{ istatus: 7 }] }));
  const saved = JSON.stringify(first.state);
  const second = new Emulator({ state: parseState(saved, 'state.json') });
  assert.equal(bodyOf(second.handle(req('GET', '/api/classes/v1/entities/2001'))).istatus, 7);
  assert.throws(() => parseState('{', 'bad.json'), /bad\.json: not valid JSON/);
  const wrong = JSON.parse(saved);
  wrong.engines[0].updatedAt = 'yesterday';
  assert.throws(() => parseState(JSON.stringify(wrong), 'bad.json'), /engines\.0\.updatedAt/);
});

test('control routes: the request log, faults and the state over /_emulator/', () => {
  const emulator = new Emulator();
  const add = emulator.handle(
    req('POST', '/_emulator/faults', { body: { spec: 'GET /api/monitoring/v1/alerts status=503' }, auth: null }),
  );
  assert.equal(add.status, 201);
  assert.equal(emulator.faults.take('GET', '/api/monitoring/v1/alerts')?.status, 503);
  assert.equal(emulator.handle(req('DELETE', '/_emulator/faults', { auth: null })).status, 204);
  assert.equal(emulator.faults.list().length, 0);
  assert.equal(bodyOf(emulator.handle(req('GET', '/_emulator/state', { auth: null }))).source.database, 'MAIN');
  const bad = emulator.handle(req('POST', '/_emulator/faults', { body: { spec: 'GET /x nonsense' }, auth: null }));
  assert.equal(bad.status, 400);
});
