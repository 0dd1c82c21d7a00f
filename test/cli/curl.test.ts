// A request made with curl exactly as enterprise-api.md's tables describe gets what the spec
// promises, from the emulator served by `enginectl emulator`: one table row per area and more.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startCliEmulator } from '../helpers/cli.ts';

const run = promisify(execFile);

/** curl -u USER:PASS [args] URL, answering status, content type and body. */
async function curl(url: string, args: string[], user = 'admin:admin') {
  const { stdout } = await run('curl', ['-sS', '-u', user, '-w', '\n%{http_code} %{content_type}', ...args, url]);
  const cut = stdout.lastIndexOf('\n');
  const [status, type = ''] = stdout.slice(cut + 1).split(' ');
  return { status: Number(status), type: type.split(';')[0], body: stdout.slice(0, cut) };
}

test('curl against `enginectl emulator`: Classes, Licensing, Monitoring and DevOps as the spec describes', async (t) => {
  const server = await startCliEmulator(t);
  const api = (path: string) => `${server.url}${path}`;

  // 4.1 Classes: GET schema is application/schema+json; entity lists include child classes.
  const schema = await curl(api('/api/classes/v1/classes/12/schema'), []);
  assert.deepEqual([schema.status, schema.type], [200, 'application/schema+json']);
  assert.equal(JSON.parse(schema.body).type, 'object');
  const lines = await curl(api('/api/classes/v1/classes/22/entities?entidade=3001'), []);
  assert.equal(lines.status, 200);
  assert.deepEqual(
    JSON.parse(lines.body).map((e: { ikey: number }) => e.ikey),
    [4001, 4002],
  );
  const patch = await curl(api('/api/classes/v1/entities/2001'), [
    '-X',
    'PATCH',
    '-H',
    'Content-Type: application/json',
    '-d',
    '[{"iemailaddress":"jd@example.com"}]',
  ]);
  assert.equal(patch.status, 200);
  assert.equal(JSON.parse(patch.body).ifullname, 'John Doe');
  const create = await curl(api('/api/classes/v1/classes/21/entities'), [
    '-H',
    'Content-Type: application/json',
    '-d',
    '[{"iname":"INV-77"}]',
  ]);
  assert.equal(create.status, 201);
  const removed = await curl(api(`/api/classes/v1/entities/${JSON.parse(create.body).ikey}`), ['-X', 'DELETE']);
  assert.deepEqual([removed.status, removed.type], [200, 'application/json']);

  // 4.2 Licensing: create answers text/plain; add takes it as text/plain; delete 200 then 204.
  const code = await curl(api('/api/licensing/v1/licenses/create'), [
    '-H',
    'Content-Type: application/json',
    '-d',
    '{"licenseeId":"L1","licenseeName":"ACME","expiration":"2028-06-30","licenses":[{"productKey":3,"quantity":5,"type":"X"}]}',
  ]);
  assert.deepEqual([code.status, code.type], [200, 'text/plain']);
  const add = await curl(api('/api/licensing/v1/licenses'), [
    '-H',
    'Content-Type: text/plain',
    '--data-binary',
    code.body,
  ]);
  assert.equal(add.status, 200);
  assert.equal(JSON.parse((await curl(api('/api/licensing/v1/licenses/3'), [])).body).type, 'custom');
  assert.equal((await curl(api('/api/licensing/v1/licenses/3'), ['-X', 'DELETE'])).status, 200);
  const again = await curl(api('/api/licensing/v1/licenses/3'), ['-X', 'DELETE']);
  assert.deepEqual([again.status, again.body], [204, '']);

  // 4.3 Monitoring: online Engines; 404 for an unknown Engine.
  const engines = await curl(api('/api/monitoring/v1/engines'), [], 'monitor:monitor');
  assert.equal(JSON.parse(engines.body).length, 4);
  assert.equal((await curl(api('/api/monitoring/v1/engines/eng-unknown/alerts'), [], 'monitor:monitor')).status, 404);
  assert.equal((await curl(api('/api/monitoring/v1/sessions/nope'), [], 'monitor:monitor')).status, 404);

  // 4.4 DevOps: clear (200), sync (200 with one result per target), vfs update (200, JSON result).
  assert.equal((await curl(api('/api/devops/v1/transaction-log/clear'), ['-X', 'POST'])).status, 200);
  const sync = await curl(api('/api/devops/v1/replication/configs/1/sync'), ['-X', 'POST']);
  assert.equal(sync.status, 200);
  assert.deepEqual(
    JSON.parse(sync.body).map((r: { targetDatabase: string }) => r.targetDatabase),
    ['REPLICA-1', 'REPLICA-2'],
  );
  const vfs = await curl(api('/api/devops/v1/update/vfs'), [
    '-H',
    'Content-Type: application/json',
    '-d',
    '{"targetDBName":"STAGING","targetServer":"staging-db.example.com","targetUserName":"deploy","targetPassword":"deploy-pass","directories":["/reports"]}',
  ]);
  assert.deepEqual([vfs.status, vfs.type], [200, 'application/json']);
  const result = JSON.parse(vfs.body);
  assert.equal(result.success, true);
  assert.equal(result.options.targetPassword, '');
  assert.match(result.report, /^# VFS update of STAGING/);

  // Section 5: the scopes. monitor has api.monitoring only.
  assert.equal((await curl(api('/api/devops/v1/replication/configs'), [], 'monitor:monitor')).status, 403);
  assert.equal((await curl(api('/api/licensing/v1/products'), [], 'monitor:wrong')).status, 401);
});
