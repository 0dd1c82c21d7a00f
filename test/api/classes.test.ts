// The Classes API (enterprise-api.md 4.1) through the client, against the emulator over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rejection, startEmulator } from '../helpers/emulator.ts';

test('GET classes/{k}/schema answers application/schema+json with inherited fields', async (t) => {
  const { client, url } = await startEmulator(t);
  const schema = await client().classes.schema(12);
  assert.equal(schema.title, 'Users');
  assert.equal(schema.type, 'object');
  assert.deepEqual(schema.required, ['iclass', 'ikey', 'iname', 'ifullname']);
  assert.equal(schema.properties.iname?.type, 'string', 'inherited from Users and groups');
  assert.deepEqual(schema.properties.inavtreevisibilitymode?.enum, [0, 1, 2]);
  const raw = await client().request({ method: 'GET', path: '/api/classes/v1/classes/12/schema' });
  assert.equal(raw.contentType, 'application/schema+json');
  assert.ok(url);
});

test('children are the classes whose MAE is the class; descendants go down to the leaves', async (t) => {
  const { client } = await startEmulator(t);
  assert.deepEqual(await client().classes.children(1), [10, 20, 30, 90]);
  assert.deepEqual(
    (await client().classes.descendants(1)).sort((a, b) => a - b),
    [10, 11, 12, 13, 20, 21, 22, 30, 90],
  );
  assert.deepEqual(await client().classes.descendants(12), []);
});

test('listing a class includes its child classes, with their extra fields', async (t) => {
  const { client } = await startEmulator(t);
  const entities = await client().classes.list(11);
  assert.deepEqual(new Set(entities.map((e) => e.iclass)), new Set([12, 13]));
  const user = entities.find((e) => e.ikey === 2001)!;
  assert.equal(user.iemailaddress, 'john.doe@example.com');
  assert.ok('ilastpasswdchg' in user, 'a Users field');
  assert.equal(user.ipassword, null, 'unset fields appear as null');
  const group = entities.find((e) => e.ikey === 2010)!;
  assert.ok(!('ilastpasswdchg' in group), 'Groups do not have the Users fields');
});

test('equality filters select detail records of a master', async (t) => {
  const { client } = await startEmulator(t);
  const lines = await client().classes.list(22, { entidade: 3001 });
  assert.deepEqual(
    lines.map((e) => e.ikey),
    [4001, 4002],
  );
  assert.deepEqual(await client().classes.list(22, { entidade: 9999 }), []);
  const groupsOfJdoe = await client().classes.list(11, { iname: 'jdoe' });
  assert.deepEqual(
    groupsOfJdoe.map((e) => e.ikey),
    [2001],
  );
});

test('a filter on a field no class of the hierarchy has is a 400 naming the field', async (t) => {
  const { client } = await startEmulator(t);
  const error = await rejection(client().classes.list(21, { colour: 'red' }));
  assert.equal(error.code, 'API_HTTP_STATUS');
  assert.equal(error.status, 400);
  assert.match(error.message, /unknown filter field colour/);
});

test('entities of a class without a table are an error (400) that names classes to use', async (t) => {
  const { client } = await startEmulator(t);
  const error = await rejection(client().classes.list(10));
  assert.equal(error.status, 400);
  assert.match(error.message, /class 10 \(Security\) defines no table.*11, 12, 13/);
});

test('an entity is reachable by key, by identifier, with or without its class', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  assert.equal((await c.classes.get(2001)).iname, 'jdoe');
  assert.equal((await c.classes.get(2001, 11)).iname, 'jdoe', 'through an ancestor class');
  assert.equal((await c.classes.get('jdoe', 12)).ikey, 2001, 'by identifier');
  assert.equal((await c.classes.get(-1)).iname, 'admin', 'negative keys');
  const wrongClass = await rejection(c.classes.get(2001, 21));
  assert.equal(wrongClass.code, 'API_NOT_FOUND');
  assert.match(wrongClass.message, /entity 2001 of class 21 was not found/);
});

test('POST classes/{k}/entities creates (201) with every field, a unique key, and an iLog record', async (t) => {
  const { client, emulator } = await startEmulator(t);
  const c = client();
  const created = await c.classes.create(12, { iname: 'mlee', ifullname: 'Mei Lee', iemailaddress: 'mei@example.com' });
  assert.equal(created.iclass, 12);
  assert.equal(created.iversion, 1);
  assert.ok(created.ikey >= 5000);
  assert.equal(created.ilastpasswdchg, null, 'all fields included');
  const raw = await c.request({
    method: 'POST',
    path: '/api/classes/v1/classes/21/entities',
    body: { json: [{ iname: 'INV-9' }] },
  });
  assert.equal(raw.status, 201);
  assert.notEqual((raw.body as { ikey: number }).ikey, created.ikey, 'keys are unique across classes');
  const log = await c.classes.list(90, { ientity: created.ikey });
  assert.equal(log.length, 1);
  assert.equal(log[0]!.ioperation, 'insert');
  assert.equal(emulator.count('POST', '/api/classes/v1/classes/12/entities'), 1);
});

test('a create missing a required field, or with a wrong type or unknown field, is a 400 naming each', async (t) => {
  const { client } = await startEmulator(t);
  const error = await rejection(client().classes.create(12, { ifullname: 42, icolour: 'red' }));
  assert.equal(error.status, 400);
  const body = JSON.parse(String(error.body)) as { details: { field: string }[] };
  assert.deepEqual(body.details.map((d) => d.field).sort(), ['icolour', 'ifullname', 'iname']);
});

test('POST, PATCH and PUT update only the supplied fields, by class or by id alone', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  const patched = await c.classes.update(2001, { iemailaddress: 'j@example.com' }, 12, 'PATCH');
  assert.equal(patched.iemailaddress, 'j@example.com');
  assert.equal(patched.ifullname, 'John Doe', 'other fields unchanged');
  assert.equal(patched.iversion, 2);
  const put = await c.classes.update(2001, { istatus: 2 }, undefined, 'PUT');
  assert.equal(put.iemailaddress, 'j@example.com', 'PUT does not clear unsupplied fields');
  const posted = await c.classes.update(2001, { ifullname: 'John Q. Doe' }, 11, 'POST');
  assert.equal(posted.istatus, 2);
  assert.equal(posted.iversion, 4);
  const log = await c.classes.list(90, { ientity: 2001 });
  assert.equal(log.length, 3);
  assert.deepEqual(log[0]!.ioldvalues, { iversion: 1, iemailaddress: 'john.doe@example.com' });
  assert.deepEqual(log[0]!.inewvalues, { iversion: 2, iemailaddress: 'j@example.com' });
});

test('an entity may change class within its table, and stays reachable by id', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  const moved = await c.classes.update(2002, { iclass: 13 });
  assert.equal(moved.iclass, 13);
  assert.equal((await c.classes.get(2002)).iclass, 13);
  const error = await rejection(c.classes.update(2002, { iclass: 21 }));
  assert.equal(error.status, 400);
  assert.match(error.message, /same table/);
});

test('DELETE removes the entity (200, application/json); then it is 404', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  const raw = await c.request({ method: 'DELETE', path: '/api/classes/v1/classes/22/entities/4003' });
  assert.equal(raw.status, 200);
  assert.equal(raw.contentType, 'application/json');
  const deleted = (await c.classes.delete(4002)) as { ikey: number };
  assert.equal(deleted.ikey, 4002, 'the emulator answers the deleted entity');
  assert.equal((await c.classes.list(22, { entidade: 3001 })).length, 1);
  const error = await rejection(c.classes.get(4003));
  assert.equal(error.code, 'API_NOT_FOUND');
  assert.match(error.message, /entity 4003 was not found/);
});

test('unknown classes are 404 with a message that says what was not found', async (t) => {
  const { client } = await startEmulator(t);
  const error = await rejection(client().classes.children(777));
  assert.equal(error.code, 'API_NOT_FOUND');
  assert.match(error.message, /class 777 was not found \(404\): class 777 does not exist/);
});

test('the Classes area needs authentication but no scope', async (t) => {
  const { client } = await startEmulator(t);
  assert.equal((await client('monitor').classes.get(2001)).iname, 'jdoe');
  const error = await rejection(client('admin', 'wrong').classes.get(2001));
  assert.equal(error.code, 'API_UNAUTHORIZED');
});
