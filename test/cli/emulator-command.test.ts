// `enginectl emulator` as a process: its first line, its flags, and how it stops.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, startCliEmulator } from '../helpers/cli.ts';

const get = (url: string, path: string, user = 'admin:admin') =>
  fetch(`${url}${path}`, { headers: { authorization: `Basic ${Buffer.from(user).toString('base64')}` } });

test('--port 0 prints "listening on http://127.0.0.1:PORT" first, serves, and SIGTERM stops it with 0', async (t) => {
  const server = await startCliEmulator(t);
  const res = await get(server.url, '/api/licensing/v1/products');
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as unknown[]).length, 3);
  server.child.kill('SIGTERM');
  assert.deepEqual(await server.exited, { code: 0, signal: null });
});

test('--fault, --user, --fail-replication and --log shape what it serves', async (t) => {
  const server = await startCliEmulator(t, [
    '--fault', 'GET /api/monitoring/v1/alerts status=503 times=1',
    '--user', 'ops:pw:api.devops',
    '--fail-replication', 'REPLICA-1=disk full',
    '--log',
  ]);
  assert.equal((await get(server.url, '/api/monitoring/v1/alerts')).status, 503);
  assert.equal((await get(server.url, '/api/monitoring/v1/alerts')).status, 200, 'times=1');
  assert.equal((await get(server.url, '/api/devops/v1/replication/configs', 'ops:pw')).status, 200);
  assert.equal((await get(server.url, '/api/monitoring/v1/alerts', 'ops:pw')).status, 403);
  const sync = await fetch(`${server.url}/api/devops/v1/replication/sync`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from('ops:pw').toString('base64')}` } });
  assert.equal(sync.status, 500);
  const results = (await sync.json()) as { targetDatabase: string; errorMessage: string }[];
  assert.deepEqual(results.map((r) => [r.targetDatabase, r.errorMessage]), [['REPLICA-1', 'disk full'], ['REPLICA-2', '']]);
  const log = await fetch(`${server.url}/_emulator/requests`);
  assert.equal(((await log.json()) as unknown[]).length, 5);
  server.child.kill('SIGINT');
  await server.exited;
  assert.match(server.stderr(), /GET \/api\/monitoring\/v1\/alerts \[fault: status=503\]/);
});

test('--state FILE replaces the sample state; a broken file is exit 2 naming it', async (t) => {
  const first = await startCliEmulator(t);
  const state = (await (await fetch(`${first.url}/_emulator/state`)).json()) as { products: { name: string }[] };
  first.child.kill('SIGTERM');
  state.products[0]!.name = 'ERP Core Plus';
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-'));
  writeFileSync(join(dir, 'state.json'), JSON.stringify(state));
  const second = await startCliEmulator(t, ['--state', join(dir, 'state.json')]);
  const products = (await (await get(second.url, '/api/licensing/v1/products')).json()) as { name: string }[];
  assert.equal(products[0]!.name, 'ERP Core Plus');
  second.child.kill('SIGTERM');
  writeFileSync(join(dir, 'broken.json'), '{"source": 1}');
  const broken = await runCli(['emulator', '--state', join(dir, 'broken.json')]);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /broken\.json: not an emulator state\n {2}source: /);
});

test('a port in use is exit 2 with a hint', async (t) => {
  const server = await startCliEmulator(t);
  const port = new URL(server.url).port;
  const r = await runCli(['emulator', '--port', port]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)[\s\S]*hint: the port is taken/);
});
