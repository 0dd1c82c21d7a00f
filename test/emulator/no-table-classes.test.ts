// A class that defines no table has no entities (api 1.2): asking for an entity through one (read,
// create, update, delete) is an error, as querying its entities is; through its descendant
// classes that do define one, the same entity answers. No write goes through such a class.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

test('an entity asked for through a class that defines no table is a 400, for reads and writes alike; nothing changes', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/classes/v1${path}`, {
      method,
      headers: { authorization: basic, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  const before = JSON.stringify(emulator.state.entities);
  // Through the classes that define their table: found.
  assert.equal((await call('GET', '/classes/12/entities/2001')).status, 200);
  assert.equal((await call('GET', '/classes/22/entities/4003')).status, 200);
  for (const [method, path, body] of [
    ['GET', '/classes/10/entities/2001'],
    ['GET', '/classes/1/entities/2001'],
    ['POST', '/classes/10/entities', [{ iclass: 12, iname: 'x', ifullname: 'X' }]],
    ['PATCH', '/classes/1/entities/2002', [{ ifullname: 'changed' }]],
    ['DELETE', '/classes/20/entities/4003'],
  ] as const) {
    const r = await call(method, path, body);
    assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
    assert.match(r.text, /defines no table, so it has no entities/, `${method} ${path}`);
  }
  assert.equal(JSON.stringify(emulator.state.entities), before, 'no entity created, changed or deleted');
});
