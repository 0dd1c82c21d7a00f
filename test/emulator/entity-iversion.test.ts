// iversion is an entity field of type integer (api 2.1: "Version number of the record"). A create
// or update whose body holds one of another type is refused with a 400 naming it, as any field of
// a wrong type is (docs/emulator.md), never silently dropped; nothing is written. Who sets it the
// spec does not show: the emulator keeps it (an integer written is not stored), as documented.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

async function send(url: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

for (const iversion of ['seven', 1.5, true, [1], { n: 1 }]) {
  test(`iversion ${JSON.stringify(iversion)} in a create or an update body is a 400 naming iversion; nothing is written`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    const created = await send(url, 'POST', '/api/classes/v1/classes/12/entities', [
      { iname: 'mnew', ifullname: 'Mary New', iversion },
    ]);
    assert.equal(created.status, 400, JSON.stringify(created.body));
    assert.deepEqual(
      (created.body.details as { field: string }[] | undefined)?.map((d) => d.field),
      ['iversion'],
    );
    assert.equal(
      emulator.state.entities.some((e) => e.iname === 'mnew'),
      false,
      'not created',
    );
    for (const path of ['/api/classes/v1/classes/12/entities/2001', '/api/classes/v1/entities/2001']) {
      const before = structuredClone(emulator.state.entities.find((e) => e.ikey === 2001));
      const updated = await send(url, 'PATCH', path, [{ iemailaddress: 'x@example.com', iversion }]);
      assert.equal(updated.status, 400, `${path}: ${JSON.stringify(updated.body)}`);
      assert.deepEqual(
        (updated.body.details as { field: string }[] | undefined)?.map((d) => d.field),
        ['iversion'],
      );
      assert.deepEqual(
        emulator.state.entities.find((e) => e.ikey === 2001),
        before,
        'not updated',
      );
    }
  });
}

test('an integer iversion written is not stored: the server keeps the version, 1 at create and one more at each update (docs/emulator.md)', async (t) => {
  const { url } = await startEmulator(t);
  const created = await send(url, 'POST', '/api/classes/v1/classes/12/entities', [
    { iname: 'mnew', ifullname: 'Mary New', iversion: 7 },
  ]);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.iversion, 1);
  const updated = await send(url, 'PATCH', `/api/classes/v1/entities/${String(created.body.ikey)}`, [
    { iemailaddress: 'm@example.com', iversion: 99 },
  ]);
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  assert.equal(updated.body.iversion, 2);
});
