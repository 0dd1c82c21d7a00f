// The DevOps API (enterprise-api.md 4.4) through the client, against the emulator over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { rejection, startEmulator } from '../helpers/emulator.ts';

const prod = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };

test('transaction-log/clear empties iLog (200) and needs api.devops and system.clearTransactionLog', async (t) => {
  const { client, emulator } = await startEmulator(t, {
    users: [{ name: 'deployer', password: 'pw', scopes: new Set(['api.devops']) }],
  });
  const c = client();
  await c.classes.update(2001, { istatus: 2 });
  assert.equal((await c.classes.list(90)).length, 1);
  const error = await rejection(client('deployer', 'pw').devops.clearTransactionLog());
  assert.equal(error.code, 'API_FORBIDDEN');
  assert.match(error.message, /requires the scopes api\.devops and system\.clearTransactionLog/);
  assert.deepEqual(await c.devops.clearTransactionLog(), { status: 200 });
  assert.deepEqual(await c.classes.list(90), []);
  assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 2);
});

test('replication configurations, by list and by key; 404 for an unknown key', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  const configs = await c.devops.replicationConfigs();
  assert.deepEqual(
    configs.map((x) => [x.key, x.enabled]),
    [
      [1, true],
      [2, false],
    ],
  );
  assert.deepEqual((await c.devops.replicationConfig(1)).databases, [
    { name: 'REPLICA-1', key: 11 },
    { name: 'REPLICA-2', key: 12 },
  ]);
  assert.match((await rejection(c.devops.replicationConfig(9))).message, /replication configuration 9 was not found/);
});

test("a sync moves the source's changes of positive keys with true counts, once", async (t) => {
  const { client, emulator } = await startEmulator(t);
  const c = client();
  await c.classes.create(21, { iname: 'INV-NEW' });
  await c.classes.delete(4003);
  await c.classes.update(-1, { iemailaddress: 'root@example.com' }, undefined, 'PATCH');
  const first = await c.devops.sync(1);
  assert.equal(first.status, 200);
  assert.equal(first.succeeded, 2);
  const stats = first.results[0]!.stats!;
  // sample: jdoe updated, INV-3003 inserted; here: INV-NEW inserted, line 4003 deleted; key -1 is local
  assert.deepEqual([stats.numInserts, stats.numUpdates, stats.numDeletes], [2, 1, 1]);
  assert.equal(stats.numTransactionLogs, 4);
  assert.equal(first.results[0]!.startVersion, 100);
  const again = await c.devops.sync(1);
  assert.deepEqual([again.results[0]!.stats!.numInserts, again.results[0]!.stats!.numUpdates], [0, 0]);
  assert.equal(again.results[0]!.startVersion, first.results[0]!.endVersion);
  assert.equal(
    emulator.state.databases.find((d) => d.name === 'REPLICA-1')!.entities.some((e) => e.ikey === -1),
    false,
  );
});

test('a failed target makes the sync a 500 whose results are all returned, failures included', async (t) => {
  const { client, emulator } = await startEmulator(t);
  emulator.failReplication('REPLICA-2', 'network unreachable');
  const outcome = await client().devops.sync();
  assert.equal(outcome.status, 500);
  assert.equal(outcome.results.length, 2, 'only enabled configurations');
  assert.equal(outcome.succeeded, 1);
  assert.equal(outcome.failed, 1);
  const failed = outcome.results.find((r) => !r.success)!;
  assert.equal(failed.targetDatabase, 'REPLICA-2');
  assert.equal(failed.errorMessage, 'network unreachable');
  assert.equal(emulator.count('POST', '/api/devops/v1/replication/sync'), 1, 'a POST is never repeated');
});

test('system update: upgrades the target, its Engines, and answers the full result with a Markdown report', async (t) => {
  const clock = simulatedClock();
  const { client, emulator } = await startEmulator(t, { now: clock.now });
  const c = client();
  const result = await c.devops.updateSystem({ ...prod, trackingId: 'REL-42', products: [1] });
  assert.equal(result.success, true);
  assert.deepEqual(result.versions, [2611001, 2611002, 2611003]);
  assert.deepEqual(result.targetDatabaseVersionInfo, {
    client: { major: 26, minor: 11, name: '2026.11' },
    server: { major: 26, minor: 11, name: '26.11.0' },
  });
  assert.deepEqual(result.products, [{ name: 'ERP Core', key: 1 }]);
  assert.equal(result.options!.targetAuthToken, '', 'credential fields come back as empty strings');
  assert.equal(result.options!.trackingId, 'REL-42');
  assert.match(result.report!, /^# System update of PROD on prod-db\.example\.com/);
  assert.match(result.report!, /\| Engine \| 26\.10\.3 \| 26\.11\.0 \|/);
  for (const key of [
    'schemaChanges',
    'releaseNotes',
    'postUpdateScripts',
    'permissionChanges',
    'duplicateNameClasses',
    'errors',
    'messages',
    'ddlStatements',
    'warnings',
    'orphanRecords',
  ]) {
    assert.ok(Array.isArray(result[key]), `${key} is an array`);
  }
  // Monitoring shows the Engines as its last refresh read them: the new version from the next one (2 minutes).
  const versions = async () => (await c.monitoring.engines()).map((e) => [e.mainDatabase, e.version]);
  assert.deepEqual(await versions(), [
    ['MAIN', '26.11.0'],
    ['PROD', '26.10.3'],
    ['PROD', '26.10.3'],
    ['STAGING', '26.10.3'],
  ]);
  await clock.sleep(2 * 60_000, new AbortController().signal);
  assert.deepEqual(await versions(), [
    ['MAIN', '26.11.0'],
    ['PROD', '26.11.0'],
    ['PROD', '26.11.0'],
    ['STAGING', '26.10.3'],
  ]);
  const again = await c.devops.updateSystem({
    ...prod,
    targetAuthToken: undefined,
    targetUserName: 'deploy',
    targetPassword: 'deploy-pass',
  });
  assert.deepEqual(again.versions, [], 'already current');
  assert.equal(emulator.count('POST', '/api/devops/v1/update/system'), 2);
});

test('update validation: targetDBName, targetServer, a token or user and password; files or directories', async (t) => {
  const { client } = await startEmulator(t);
  const c = client();
  const send = (path: string, json: unknown) =>
    c.request({ method: 'POST', path: `/api/devops/v1/update/${path}`, body: { json } });
  const none = await send('system', {});
  assert.equal(none.status, 400);
  const fields = (none.body as { details: { field: string }[] }).details.map((d) => d.field).sort();
  assert.deepEqual(fields, ['targetAuthToken', 'targetDBName', 'targetServer']);
  const halfCredentials = await send('system', {
    targetDBName: 'PROD',
    targetServer: 'prod-db.example.com',
    targetUserName: 'deploy',
  });
  assert.match(JSON.stringify(halfCredentials.body), /"field":"targetPassword"/);
  const noFiles = await send('vfs', prod);
  assert.match(JSON.stringify(noFiles.body), /at least one of files or directories is required/);
  const typo = await send('vfs', { ...prod, file: [1001] });
  assert.match(JSON.stringify(typo.body), /unknown field file/, 'a misspelt option is not silently ignored');
  const error = await rejection(c.devops.updateSystem({ targetDBName: 'PROD', targetServer: 'x' } as never));
  assert.equal(error.code, 'API_HTTP_STATUS');
  assert.equal(error.status, 400);
});

test('a target that refuses the credentials gives success false, errors and a report', async (t) => {
  const { client } = await startEmulator(t);
  const result = await client().devops.updateSystem({ ...prod, targetAuthToken: 'stolen' });
  assert.equal(result.success, false);
  assert.deepEqual(result.errors, [
    {
      code: 'target_authentication_failed',
      message: 'authentication to PROD on prod-db.example.com failed: the token was refused',
    },
  ]);
  assert.match(result.report!, /failed/);
});

test("a source's credentials, when given, are checked as the target's are: a wrong token or password is success false and nothing installed", async (t) => {
  const { client, emulator } = await startEmulator(t);
  const source = { sourceServer: 'main-db.example.com', sourceDBName: 'MAIN' };
  const installed = () => JSON.stringify(emulator.state.databases.find((d) => d.name === 'PROD')!.vfsFiles);
  const before = installed();
  for (const [credentials, why] of [
    [{ sourceAuthToken: 'garbage' }, 'the token was refused'],
    [{ sourceUserName: 'deploy', sourcePassword: 'wrong' }, 'wrong user name or password'],
  ] as const) {
    const result = await client().devops.updateVfs({ ...prod, ...source, ...credentials, files: [1001] });
    assert.equal(result.success, false, JSON.stringify(credentials));
    assert.deepEqual(result.errors, [
      {
        code: 'source_authentication_failed',
        message: `authentication to MAIN on main-db.example.com failed: ${why}`,
      },
    ]);
    assert.equal(installed(), before, 'nothing installed');
  }
  for (const credentials of [
    { sourceAuthToken: 'main-token' },
    { sourceUserName: 'deploy', sourcePassword: 'deploy-pass' },
  ]) {
    const result = await client().devops.updateVfs({ ...prod, ...source, ...credentials, files: [1001] });
    assert.equal(result.success, true, JSON.stringify(credentials) + JSON.stringify(result.errors));
  }
});

test('vfs update: inserts and updates files by key or directory; summary and stats tell which', async (t) => {
  const { client, emulator } = await startEmulator(t);
  const c = client();
  const result = await c.devops.updateVfs({ ...prod, files: [1001, 1002], directories: ['/templates'] });
  assert.equal(result.success, true);
  assert.equal(result.summary, '3 vfs file(s) on PROD: 1 inserted, 1 updated, 1 unchanged');
  assert.deepEqual([result.stats!.numInserts, result.stats!.numUpdates, result.stats!.numSourceEntries], [1, 1, 3]);
  assert.equal(typeof result.stats!.startedAt, 'number');
  assert.deepEqual(result.products, [], 'empty in a vfs result');
  assert.match(result.report!, /\| 1001 \| \/reports\/sales\/summary\.rpt \| 2 \| 3 \| updated \|/);
  assert.deepEqual(emulator.state.databases.find((d) => d.name === 'PROD')!.vfsFiles, {
    '1001': 3,
    '1002': 2,
    '1003': 5,
    '1004': 1,
  });
  const missing = await c.devops.updateVfs({ ...prod, files: [4242] });
  assert.equal(missing.success, false);
  assert.match(JSON.stringify(missing.errors), /no vfs file with key 4242/);
});
