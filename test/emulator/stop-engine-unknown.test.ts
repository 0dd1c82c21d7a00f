// The stop-engine fault names an Engine of the site: one the site has none of is said at once, in
// the answer to the request that would set it off, never a fault that silently does nothing (a
// rollout's gate meant to see an Engine go offline would pass, and the test with it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const UPDATE = '/api/devops/v1/update/system';
const body = { targetDBName: 'STAGING', targetServer: 'staging-db.example.com', targetAuthToken: 'staging-token' };

async function update(url: string) {
  const res = await fetch(`${url}${UPDATE}`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

test('stop-engine=ID of an Engine the site does not have: the answer that would set it off is a 500 naming it and the Engines there are', async (t) => {
  const { url } = await startEmulator(t, { faults: [{ method: 'POST', path: UPDATE, stopEngine: 'eng-stg-1' }] });
  const answer = await update(url);
  assert.equal(answer.status, 500, answer.text);
  assert.match(
    (JSON.parse(answer.text) as { message: string }).message,
    /fault rule stop-engine=eng-stg-1: the site has no Engine "eng-stg-1" \(its Engines: .*eng-stg-01/,
  );
});

test("stop-engine=ID of an Engine the site has: the answer is the API's, and the Engine stops reporting: listed until 5 minutes after the last refresh that read it (api 8.2), then offline", async (t) => {
  // 10 s past a refresh of monitoring, on a clock that moves only when told.
  let now = Date.parse('2026-03-10T05:00:10Z');
  const { url } = await startEmulator(t, {
    now: () => now,
    faults: [{ method: 'POST', path: UPDATE, stopEngine: 'eng-stg-01' }],
  });
  now += 60_000;
  const answer = await update(url);
  assert.equal(answer.status, 200, answer.text);
  const listed = async () =>
    (
      (await (await fetch(`${url}/api/monitoring/v1/engines`, { headers: { authorization: basic } })).json()) as {
        instanceId: string;
        updatedAt: number;
      }[]
    ).map((e) => [e.instanceId, e.updatedAt] as const);
  // It stopped at 05:01:10Z; the last refresh that read it was at 05:00:10Z (the state's start), so
  // monitoring lists it with that updatedAt until 05:05:10Z, as a real Engine that stops sending.
  const last = Date.parse('2026-03-10T05:00:10Z');
  for (const at of ['05:01:10', '05:03:00', '05:05:10']) {
    now = Date.parse(`2026-03-10T${at}Z`);
    assert.deepEqual(
      (await listed()).find(([id]) => id === 'eng-stg-01'),
      ['eng-stg-01', last],
      `still online at ${at}`,
    );
  }
  now += 1;
  // Monitoring lists an Engine only while it reports (api 4.3, 8.2).
  const ids = (await listed()).map(([id]) => id);
  assert.ok(ids.includes('eng-main-01') && !ids.includes('eng-stg-01'), JSON.stringify(ids));
});
