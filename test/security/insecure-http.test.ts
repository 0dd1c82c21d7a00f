// Basic credentials never travel over plain http:// to another machine unless the server says
// `allow-insecure-http: true` (or ENGINE_ALLOW_INSECURE_HTTP=true for the server of ENGINE_URL).
// The remote host is reached through a CONNECT proxy on 127.0.0.1 that forwards to the emulator,
// so "another machine" is real to the client without leaving this one.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const dir = mkdtempSync(join(tmpdir(), 'enginectl-http-'));
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

/** A CONNECT proxy that sends every tunnel to `port` on 127.0.0.1 and counts them. */
async function tunnelTo(t: TestContext, port: number) {
  const proxy = createServer();
  const seen: string[] = [];
  proxy.on('connect', (req, socket) => {
    seen.push(req.url ?? '');
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  t.after(() => {
    proxy.closeAllConnections();
    proxy.close();
  });
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, seen };
}

const CLEAR = 'steps:\n  - uses: transaction-log/clear\n';

test('validate: a literal http:// server with a user name is refused at its url, saying why and what to do', async () => {
  const file = write(
    'remote.yml',
    `version: 1\nservers:\n  main:\n    url: http://erp.example.com\n    username: admin\n    password: x\n${CLEAR}`,
  );
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /remote\.yml:4:10 server "main": refusing to send the user name and password over plain http:\/\/ to erp\.example\.com: Basic authentication would carry them readable/,
  );
  assert.match(
    r.stderr,
    /hint: use https:\/\/erp\.example\.com, or, on a network you trust, set allow-insecure-http: true on the server/,
  );
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('validate: https, loopback, no credentials, or allow-insecure-http: true are accepted', async () => {
  const ok = [
    'url: https://erp.example.com\n    username: admin',
    'url: http://127.0.0.1:8080\n    username: admin',
    'url: http://localhost:8080\n    username: admin',
    'url: "http://[::1]:8080"\n    username: admin',
    'url: http://erp.example.com',
    'url: http://erp.example.com\n    username: admin\n    allow-insecure-http: true',
  ];
  for (const [i, server] of ok.entries()) {
    const r = await runCli([
      'validate',
      write(`ok-${i}.yml`, `version: 1\nservers:\n  main:\n    ${server}\n${CLEAR}`),
    ]);
    assert.equal(r.code, 0, `${server}: ${r.stderr}`);
  }
});

test('run: ENGINE_URL over http:// to another host stops before any call (exit 2); ENGINE_ALLOW_INSECURE_HTTP=true lets it through', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const proxy = await tunnelTo(t, Number(new URL(url).port));
  const file = write('env-server.yml', `version: 1\n${CLEAR}`);
  const env = {
    ENGINE_URL: 'http://erp.example.com',
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    HTTP_PROXY: proxy.url,
  };

  const refused = await runCli(['run', file], { env });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(
    refused.stderr,
    /enginectl: server "default": refusing to send the user name and password over plain http:\/\/ to erp\.example\.com/,
  );
  assert.match(refused.stderr, /ENGINE_ALLOW_INSECURE_HTTP=true/);
  assert.deepEqual(proxy.seen, [], 'no connection was made');
  assert.equal(emulator.requests.length, 0);

  const allowed = await runCli(['run', file], { env: { ...env, ENGINE_ALLOW_INSECURE_HTTP: 'true' } });
  assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
  assert.deepEqual(proxy.seen, ['erp.example.com:80'], 'through the proxy, to the remote host');
  assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 1);
});

test('plan --live refuses a server URL run refuses, through the same checks, before any request: the same code, exit code and words, for a pipeline of writes only too', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const proxy = await tunnelTo(t, Number(new URL(url).port));
  const writes = write('writes-only.yml', `version: 1\n${CLEAR}`);
  const reads = write(
    'reads.yml',
    'version: 1\nsteps:\n  - uses: monitoring/alerts\n  - uses: transaction-log/clear\n',
  );
  const login = { ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', HTTP_PROXY: proxy.url };
  const cases: [string, string, string][] = [
    [writes, 'http://erp.example.com', 'INSECURE_HTTP'],
    [writes, 'http://u:p4ss@erp.example.com', 'BAD_SERVER_URL'],
    [writes, 'https://erp.example.com:99999', 'BAD_SERVER_URL'],
    [reads, 'http://erp.example.com', 'INSECURE_HTTP'],
  ];
  for (const [file, engineUrl, code] of cases) {
    const env = { ...login, ENGINE_URL: engineUrl };
    const run = await runCli(['run', file], { env });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, new RegExp(`\\n {2}code: ${code}\\n$`));
    const plan = await runCli(['plan', file, '--live'], { env });
    const said = `plan --live ${file} with ${engineUrl}: ${plan.stdout}${plan.stderr}`;
    assert.equal(plan.code, run.code, said);
    assert.equal(plan.stderr, run.stderr, said);
    assert.doesNotMatch(plan.stdout, /live plan of/, said);
    assert.doesNotMatch(plan.stdout + plan.stderr, /p4ss/, said);
  }
  assert.deepEqual(proxy.seen, [], 'no connection was made');
  assert.equal(emulator.requests.length, 0);
  // What run lets through, plan --live does too: plain http:// allowed.
  const allowed = await runCli(['plan', writes, '--live'], {
    env: { ...login, ENGINE_URL: 'http://erp.example.com', ENGINE_ALLOW_INSECURE_HTTP: 'true' },
  });
  assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
  assert.match(allowed.stdout, /now: not sent: a write/);
});

test('run --plan refuses a server URL that cannot be called in the words run refuses it with, before any request', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const file = write('planned.yml', 'version: 1\nsteps:\n  - uses: monitoring/alerts\n');
  const login = { ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const saved = join(dir, 'planned.json');
  const made = await runCli(['plan', file, '--live', '--out', saved], { env: { ...login, ENGINE_URL: url } });
  assert.equal(made.code, 0, made.stdout + made.stderr);
  const seen = emulator.requests.length;
  const env = { ...login, ENGINE_URL: 'https://erp.example.com:99999' };
  const run = await runCli(['run', file], { env });
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /server "default": the URL .* has port 99999/);
  const planned = await runCli(['run', file, '--plan', saved], { env });
  assert.equal(planned.code, run.code, planned.stdout + planned.stderr);
  assert.equal(planned.stderr, run.stderr);
  assert.equal(emulator.requests.length, seen);
});

test('run: credentials to a loopback server over http:// never go through HTTP_PROXY: loopback is never proxied', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const proxy = await tunnelTo(t, Number(new URL(url).port));
  const file = write('loopback.yml', `version: 1\n${CLEAR}`);
  for (const variable of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY']) {
    const r = await runCli(['run', file], {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', [variable]: proxy.url },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(proxy.seen, [], `${variable}: nothing reached the proxy`);
  }
  assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 3);
});

test('run: a server URL from an expression is checked once resolved, before the first call', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const proxy = await tunnelTo(t, Number(new URL(url).port));
  const file = write(
    'expr-server.yml',
    `version: 1
servers:
  main: { url: "\${{ env.ERP_URL }}", username: admin, password: "\${{ secrets.ERP_PASSWORD }}", allow-insecure-http: "\${{ env.ALLOW }}" }
steps:
  - uses: monitoring/alerts
  - uses: transaction-log/clear
`,
  );
  const env = { ERP_URL: 'http://erp.example.com:8080', ERP_PASSWORD: 'admin', HTTP_PROXY: proxy.url };
  const refused = await runCli(['run', file], { env: { ...env, ALLOW: 'false' } });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /server "main": refusing .* plain http:\/\/ to erp\.example\.com:8080/);
  assert.doesNotMatch(refused.stdout, /\[1\/2\]/, 'no step started');
  assert.equal(emulator.requests.length, 0);

  const allowed = await runCli(['run', file], { env: { ...env, ALLOW: 'true' } });
  assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
  assert.equal(emulator.requests.length, 2);
});

test('api: the same rule for one raw call', async () => {
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/alerts'], {
    env: { ENGINE_URL: 'http://10.0.0.7', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /refusing to send the user name and password over plain http:\/\/ to 10\.0\.0\.7/);
});
