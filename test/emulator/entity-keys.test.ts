// An entity's key is an integer (api 2.1: ikey, Required): a create that sends one that is not
// (null, a fraction, a string) is refused with the emulator's error body, and nothing is stored,
// so the emulator's own state stays one it can load again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

test('a create whose ikey is not an integer (null, 1.5, "7") is a 400 naming ikey; nothing is stored and the state still loads', async (t) => {
  const { url } = await startEmulator(t);
  for (const ikey of [null, 1.5, '7']) {
    const res = await fetch(`${url}/api/classes/v1/classes/12/entities`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify([{ iname: `key-${String(ikey)}`, ifullname: 'N', ikey }]),
    });
    const body = (await res.json()) as { status: number; error: string; details?: { field: string }[] };
    assert.equal(res.status, 400, `ikey ${JSON.stringify(ikey)}: ${JSON.stringify(body)}`);
    assert.equal(body.error, 'bad_request');
    assert.deepEqual(
      body.details?.map((d) => d.field),
      ['ikey'],
      `ikey ${JSON.stringify(ikey)}`,
    );
  }
  const listed = await fetch(`${url}/api/classes/v1/classes/12/entities?iname=key-null`, {
    headers: { authorization: basic },
  });
  assert.deepEqual(await listed.json(), [], 'nothing stored');
  const state = await (await fetch(`${url}/_emulator/state`)).text();
  const reload = await fetch(`${url}/_emulator/state`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: state,
  });
  assert.equal(reload.status, 204, await reload.text());
});
