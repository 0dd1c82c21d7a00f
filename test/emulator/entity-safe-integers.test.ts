// An integer entity field holds what a JSON parser carries exactly: beyond 2^53 two integers read
// as one (9007199254740993 arrives as 9007199254740992), so a key or a count written there would be
// stored as another. The emulator refuses it with a 400 naming the field, as it does in update
// bodies (body-check.ts), and writes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

/** Sends `text` as it is: JSON.stringify would round the integer before it leaves. */
async function send(url: string, method: string, path: string, text: string) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as { details?: { field: string }[] } };
}

for (const [field, value] of [
  ['istatus', '9007199254740993'],
  ['ismtpserver', '12345678901234567890'],
  ['isecuritypolicy', '-9007199254740993'],
  ['igroups', '[2010, 9007199254740993]'],
  ['ikey', '9007199254740993'],
] as const) {
  test(`${field}: ${value} beyond 2^53 in an entity write is a 400 naming ${field}; nothing is written`, async (t) => {
    const { url, emulator } = await startEmulator(t);
    const before = structuredClone(emulator.state.entities);
    const created = await send(
      url,
      'POST',
      '/api/classes/v1/classes/12/entities',
      `[{"iname":"big","ifullname":"Big","${field}":${value}}]`,
    );
    assert.equal(created.status, 400, JSON.stringify(created.body));
    assert.deepEqual(
      created.body.details?.map((d) => d.field),
      [field],
    );
    if (field !== 'ikey') {
      const updated = await send(url, 'PATCH', '/api/classes/v1/entities/2001', `[{"${field}":${value}}]`);
      assert.equal(updated.status, 400, JSON.stringify(updated.body));
      assert.deepEqual(
        updated.body.details?.map((d) => d.field),
        [field],
      );
    }
    assert.deepEqual(emulator.state.entities, before, 'nothing written');
  });
}
