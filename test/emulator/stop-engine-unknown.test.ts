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

test("stop-engine=ID of an Engine the site has: the answer is the API's, and the Engine stops reporting (offline: no longer listed by monitoring)", async (t) => {
  const { url } = await startEmulator(t, { faults: [{ method: 'POST', path: UPDATE, stopEngine: 'eng-stg-01' }] });
  const answer = await update(url);
  assert.equal(answer.status, 200, answer.text);
  const engines = (await (
    await fetch(`${url}/api/monitoring/v1/engines`, { headers: { authorization: basic } })
  ).json()) as { instanceId: string }[];
  // Monitoring lists an Engine only while it reports (api 4.3).
  const listed = engines.map((e) => e.instanceId);
  assert.ok(listed.includes('eng-main-01') && !listed.includes('eng-stg-01'), JSON.stringify(listed));
});
