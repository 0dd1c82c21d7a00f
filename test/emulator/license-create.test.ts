// The body of licenses/create (api 4.2) as the emulator takes it: licenseVersion "Optional; when
// empty the most current licensing version is used" (absent, null or "" alike), and a version the
// licensing service does not have (2.5) refused at create, not turned into a code that add then
// refuses; licenserKey an integer key (api 2.4: a License's licenserKey is an integer).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openLicenses } from '../../src/emulator/license-code.ts';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const request = {
  licenseeId: 'ACME-001',
  licenseeName: 'ACME Corp',
  expiration: '2027-12-31',
  licenses: [{ productKey: 3, quantity: 10, type: 'S' }],
};

async function post(url: string, path: string, body: string, type: string) {
  const res = await fetch(`${url}/api/licensing/v1${path}`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': type },
    body,
  });
  return { status: res.status, text: await res.text() };
}

const create = (url: string, body: unknown) => post(url, '/licenses/create', JSON.stringify(body), 'application/json');

test('an empty licenseVersion (absent, null, "") is the current licensing version: the code is made and added', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const current = emulator.state.licenser.licenseVersion;
  for (const version of [{}, { licenseVersion: null }, { licenseVersion: '' }]) {
    const made = await create(url, { ...request, ...version });
    assert.equal(made.status, 200, `${JSON.stringify(version)}: ${made.text}`);
    assert.equal((openLicenses(made.text) as { licenseVersion: unknown }).licenseVersion, current);
    const added = await post(url, '/licenses', made.text, 'text/plain');
    assert.equal(added.status, 200, `${JSON.stringify(version)}: ${added.text}`);
  }
});

test('a licenseVersion that is not an integer (2.5) is refused at create with a 400 naming it', async (t) => {
  const { url } = await startEmulator(t);
  const made = await create(url, { ...request, licenseVersion: 2.5 });
  assert.equal(made.status, 400, made.text);
  const body = JSON.parse(made.text) as { error: string; details: { field: string }[] };
  assert.equal(body.error, 'bad_request');
  assert.deepEqual(
    body.details.map((d) => d.field),
    ['licenseVersion'],
  );
  assert.equal((await create(url, { ...request, licenseVersion: 2 })).status, 200, 'an integer version known is taken');
});

test('a licenserKey that is not an integer (-3.7) is refused at create with a 400 naming it', async (t) => {
  const { url } = await startEmulator(t);
  const made = await create(url, { ...request, licenserKey: -3.7 });
  assert.equal(made.status, 400, made.text);
  const body = JSON.parse(made.text) as { error: string; details: { field: string }[] };
  assert.deepEqual(
    body.details.map((d) => d.field),
    ['licenserKey'],
  );
  const renewed = await create(url, { ...request, licenserKey: 7001 });
  assert.equal(renewed.status, 200, 'an integer licenserKey is taken');
});

test('a license type that is neither a name of api 2.4 nor its code (constructor, toString, __proto__) is a 400, and no code is made', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const before = JSON.stringify(emulator.state.licenses);
  for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    const made = await create(url, { ...request, licenses: [{ productKey: 3, quantity: 10, type }] });
    assert.equal(made.status, 400, `${type}: ${made.text}`);
    const body = JSON.parse(made.text) as { details: { field: string; message: string }[] };
    assert.deepEqual(
      body.details.map((d) => d.field),
      ['licenses[0].type'],
      type,
    );
    assert.match(
      body.details[0]!.message,
      /must be one of connection, processor, nominalUser, simultaneousUser, custom/,
    );
  }
  assert.equal(JSON.stringify(emulator.state.licenses), before, 'no license added');
});
