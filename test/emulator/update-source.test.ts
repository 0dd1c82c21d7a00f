// The source of an update (api 2.12): sourceServer, sourceDBName, sourceUserName, sourcePassword
// and sourceAuthToken are each optional, and the token-or-credentials rule is the target's only
// (api 5.3: "the target ... and optionally source"). A source named without credentials is a
// valid body, for the emulator and for the client's dry run alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEmulator } from '../helpers/emulator.ts';
import { oneStep, runYaml } from '../helpers/run.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const prod = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };
const main = { sourceServer: 'main-db.example.com', sourceDBName: 'MAIN' };

test('an update whose source is named without credentials is valid: 200 and success, for system and vfs', async (t) => {
  const { url } = await startEmulator(t);
  for (const [kind, body] of [
    ['system', { ...prod, ...main }],
    ['vfs', { ...prod, ...main, files: [1001] }],
    ['vfs', { ...prod, sourceDBName: 'MAIN', files: [1001] }],
  ] as const) {
    const res = await fetch(`${url}/api/devops/v1/update/${kind}`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, 200, `${kind} ${JSON.stringify(body)}: ${text}`);
    assert.equal((JSON.parse(text) as { success: boolean }).success, true, `${kind}: ${text}`);
  }
});

test('a source named apart from the database the API runs on cannot be reached: success false, not a 400', async (t) => {
  const { url } = await startEmulator(t);
  for (const source of [{ sourceServer: 'other-db.example.com', sourceDBName: 'MAIN' }, { sourceDBName: 'OTHER' }]) {
    const res = await fetch(`${url}/api/devops/v1/update/vfs`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ ...prod, ...source, files: [1001] }),
    });
    assert.equal(res.status, 200, JSON.stringify(source));
    const result = (await res.json()) as { success: boolean; errors: { code: string }[] };
    assert.equal(result.success, false, JSON.stringify(source));
    assert.deepEqual(
      result.errors.map((e) => e.code),
      ['source_unreachable'],
      JSON.stringify(source),
    );
  }
});

test('a pipeline whose update/vfs names a source without credentials runs against the emulator', async (t) => {
  const { result } = await runYaml(
    t,
    oneStep('update/vfs', '{ target: prod, source: { server: main-db.example.com, database: MAIN }, files: [1001] }'),
  );
  const step = result.steps[0]!;
  assert.equal(step.outcome, 'success', JSON.stringify(step.error));
});
