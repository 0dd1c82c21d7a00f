// The Licensing API (enterprise-api.md 4.2) through the client, against the emulator over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rejection, startEmulator } from '../helpers/emulator.ts';

const request = {
  licenseeId: 'ACME-001',
  licenseeName: 'ACME Corp',
  expiration: '2027-12-31',
  licenses: [
    { productKey: 3, quantity: 10, type: 'S' },
    { productKey: 1, quantity: 80, type: 'processor', extensions: [11, 12] },
  ],
};

test('GET licenses and licenses/{key}: licenses are keyed by their product', async (t) => {
  const { client } = await startEmulator(t);
  const licenses = await client().licensing.licenses();
  assert.deepEqual(
    licenses.map((l) => [l.productKey, l.type]),
    [
      [1, 'connection'],
      [2, 'nominalUser'],
    ],
  );
  assert.match(licenses[0]!.expiration!, /^\d{4}-\d{2}-\d{2}$/);
  assert.equal((await client().licensing.license(2)).quantity, 25);
  const error = await rejection(client().licensing.license(3));
  assert.equal(error.code, 'API_NOT_FOUND');
  assert.match(error.message, /license 3 was not found/);
});

test('create returns an opaque text/plain code; add (text/plain) decodes it and adds the licenses', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  const raw = await c.request({ method: 'POST', path: '/api/licensing/v1/licenses/create', body: { json: request } });
  assert.equal(raw.status, 200);
  assert.equal(raw.contentType, 'text/plain');
  const code = await c.licensing.create(request);
  assert.ok(!code.includes('ACME'), 'the code is opaque');
  assert.equal((await c.licensing.add(code)).status, 200);
  const crm = await c.licensing.license(3);
  assert.equal(crm.type, 'simultaneousUser', 'the code S is stored as its name');
  assert.equal(crm.quantity, 10);
  assert.equal(crm.productName, 'CRM');
  assert.equal(crm.licenserKey, 7001);
  assert.deepEqual((await c.licensing.license(1)).extensions, [11, 12], "a renewal replaces the product's license");
});

test('a damaged license code is refused with 400', async (t) => {
  const { client } = await startEmulator(t);
  const code = await client().licensing.create(request);
  const damaged = code.slice(0, -4) + (code.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  const error = await rejection(client().licensing.add(damaged));
  assert.equal(error.status, 400);
  assert.match(error.message, /license code is not valid/);
});

test('create validates the body: required fields, at least one license, type codes, dates', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  const send = (json: unknown) =>
    c.request({ method: 'POST', path: '/api/licensing/v1/licenses/create', body: { json } });
  const missing = await send({ licenseeName: 'x', expiration: '2027-02-30', licenses: [] });
  assert.equal(missing.status, 400);
  const fields = (missing.body as { details: { field: string }[] }).details.map((d) => d.field).sort();
  assert.deepEqual(fields, ['expiration', 'licenseeId', 'licenses']);
  const badType = await send({ ...request, licenses: [{ productKey: 1, quantity: 1, type: 'Z' }] });
  assert.equal(badType.status, 400);
  assert.match(JSON.stringify(badType.body), /connection, processor, nominalUser, simultaneousUser, custom/);
  const unknownProduct = await send({ ...request, licenses: [{ productKey: 99, quantity: 1, type: 'C' }] });
  assert.match(JSON.stringify(unknownProduct.body), /product 99 does not exist/);
});

test('DELETE licenses/{key}: 200 when removed, 204 when the product is already without license', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  assert.deepEqual(await c.licensing.remove(2), { status: 200 });
  assert.deepEqual(await c.licensing.remove(2), { status: 204 });
  assert.deepEqual(await c.licensing.remove(3), { status: 204 });
  assert.equal((await rejection(c.licensing.remove(99))).code, 'API_NOT_FOUND');
});

test('products and extensions, by key and per product', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  assert.deepEqual(
    (await c.licensing.products()).map((p) => p.name),
    ['ERP Core', 'Payroll', 'CRM'],
  );
  assert.deepEqual((await c.licensing.product(1)).extensions, [11, 12]);
  assert.deepEqual(
    (await c.licensing.productExtensions(1)).map((e) => e.code),
    ['MCUR', 'AREP'],
  );
  assert.equal((await c.licensing.extensions()).length, 3);
  assert.equal((await c.licensing.extension(21)).productName, 'Payroll');
  assert.match((await rejection(c.licensing.extension(5))).message, /extension 5 was not found/);
  assert.match((await rejection(c.licensing.product(5))).message, /product 5 was not found/);
});

test('licensing needs the api.licensing scope: a 403 says which', async (t) => {
  const { client } = await startEmulator(t);
  const error = await rejection(client('monitor').licensing.licenses());
  assert.equal(error.code, 'API_FORBIDDEN');
  assert.match(error.message, /requires the scope api\.licensing/);
  assert.match(String(error.hint), /grant user monitor api\.licensing/);
});
