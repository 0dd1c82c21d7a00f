// `enginectl emulator` as a process: its first line, its flags, and how it stops.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    '--fault',
    'GET /api/monitoring/v1/alerts status=503 times=1',
    '--user',
    'ops:pw:api.devops',
    '--fail-replication',
    'REPLICA-1=disk full',
    '--log',
  ]);
  assert.equal((await get(server.url, '/api/monitoring/v1/alerts')).status, 503);
  assert.equal((await get(server.url, '/api/monitoring/v1/alerts')).status, 200, 'times=1');
  assert.equal((await get(server.url, '/api/devops/v1/replication/configs', 'ops:pw')).status, 200);
  assert.equal((await get(server.url, '/api/monitoring/v1/alerts', 'ops:pw')).status, 403);
  const sync = await fetch(`${server.url}/api/devops/v1/replication/sync`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('ops:pw').toString('base64')}` },
  });
  assert.equal(sync.status, 500);
  const results = (await sync.json()) as { targetDatabase: string; errorMessage: string }[];
  assert.deepEqual(
    results.map((r) => [r.targetDatabase, r.errorMessage]),
    [
      ['REPLICA-1', 'disk full'],
      ['REPLICA-2', ''],
    ],
  );
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

/** The fault settings docs/emulator.md lists, as written there: latency, status, …, after. */
function documentedFaultSettings(): string[] {
  const docs = readFileSync('docs/emulator.md', 'utf8');
  const section = docs.slice(docs.indexOf('## Fault injection'), docs.indexOf('## Control routes'));
  return [...section.matchAll(/^\| `([a-z-]+)(=[^`]*)?`(?:, `([a-z-]+)(=[^`]*)?`)? \|/gm)].flatMap((m) => [
    m[1]!,
    ...(m[3] ? [m[3]] : []),
  ]);
}

test('the --fault help of run, plan and emulator names every setting the emulator takes', async () => {
  const settings = [...new Set(documentedFaultSettings())];
  for (const wanted of ['site', 'raise-alert', 'stop-engine', 'after', 'gateway'])
    assert.ok(settings.includes(wanted), `docs/emulator.md lists ${wanted}=`);
  for (const command of ['run', 'plan', 'emulator']) {
    const help = await runCli([command, '--help']);
    assert.equal(help.code, 0, help.stderr);
    const fault = help.stdout.slice(help.stdout.indexOf('--fault'), help.stdout.indexOf('--fail-replication'));
    for (const setting of settings)
      assert.match(fault, new RegExp(`(^|\\s)${setting}(=|\\s|$)`, 'm'), `${command} --help: --fault ${setting}`);
  }
});

test('a request the emulator answered with no status line (a dropped connection) is logged with status 0, as docs/emulator.md says', async (t) => {
  const server = await startCliEmulator(t, ['--fault', 'GET /api/monitoring/v1/alerts reset=before times=1']);
  await assert.rejects(get(server.url, '/api/monitoring/v1/alerts'));
  const log = (await (await fetch(`${server.url}/_emulator/requests`)).json()) as {
    path: string;
    status: number;
    fault?: string;
  }[];
  assert.equal(log[0]!.status, 0);
  assert.match(log[0]!.fault!, /reset=before/);
  server.child.kill('SIGTERM');
  await server.exited;
  const docs = readFileSync('docs/emulator.md', 'utf8');
  assert.match(docs, /`status` 0: no status line was sent/);
});

test('the system update report of the emulator does not list an offline Engine as restarted', async () => {
  const r = await runCli([
    'api',
    'POST',
    '/api/devops/v1/update/system',
    '--emulator',
    '--data',
    JSON.stringify({ targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' }),
  ]);
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout) as { report: string; stats: { operations: Record<string, number> } };
  // eng-prod-old (PROD) stopped reporting three hours ago in the sample state: offline.
  assert.match(result.report, /^\| eng-prod-01 \| prod-app-01 \| 26\.11\.0 \| yes \|$/m);
  assert.match(result.report, /^\| eng-prod-old \| prod-app-old \| 26\.11\.0 \| no \(offline\) \|$/m);
  assert.equal(result.stats.operations['restart engine'], 2);
});

test('run and plan --emulator --state name a state file they cannot read first, not the secrets the sample would have given', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-state-first-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // With --state the sample's tokens are not filled in (the state may hold others): a mistyped
  // path must be told as such, not as "secrets.PROD_TOKEN is not set".
  for (const command of [['run'], ['plan', '--live']]) {
    const r = await runCli([...command, 'pipelines/demo.yml', '--emulator', '--state', join(dir, 'sate.json')], {
      env: {},
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /cannot read the state file .*sate\.json: ENOENT/, command.join(' '));
    assert.doesNotMatch(r.stderr, /PROD_TOKEN/, command.join(' '));
  }
});

test('--host other than loopback warns that its users (admin/admin) and its control routes, which take no login, are open to whoever reaches that address; loopback does not', async (t) => {
  const { spawn } = await import('node:child_process');
  const { createInterface } = await import('node:readline');
  const { CLI, cleanEnv } = await import('../helpers/cli.ts');
  const serve = async (args: string[]) => {
    const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0', ...args], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const first = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    );
    child.kill('SIGTERM');
    return { first, code: await exited, stderr };
  };
  const open = await serve(['--host', '0.0.0.0']);
  assert.match(open.first, /^listening on http:\/\/0\.0\.0\.0:\d+$/);
  assert.equal(open.code, 0);
  assert.match(open.stderr, /warning: .*0\.0\.0\.0.*admin\/admin.*\/_emulator\//s, open.stderr);
  const local = await serve([]);
  assert.equal(local.stderr, '');
});
