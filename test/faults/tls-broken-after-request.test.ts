// A TLS connection that breaks after the request was written (a record the client cannot decrypt:
// a middlebox rewriting bytes, a server's TLS stack failing mid-answer). Node emits the error on
// the TLS socket but does not close it, and undici waits for the close: the call hung until its
// timeout (dispatcher.ts destroys such a socket). And the write went out: its fate is unknown,
// never "not sent" as a TLS failure during the handshake is (api/fate.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createServer } from 'node:tls';
import { runCli } from '../helpers/cli.ts';
import { tlsFixture } from '../helpers/http.ts';

/** A record of type application data that no key decrypts. */
const BAD_RECORD = Buffer.from('170303000a0102030405060708090a', 'hex');

/** A TLS server that answers each request with a record the client cannot decrypt; counts the requests. */
async function breakingServer(t: TestContext): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const raw = new Map<object, Socket>();
  const server = createServer(
    { key: readFileSync(tlsFixture('server-key.pem')), cert: readFileSync(tlsFixture('server-cert.pem')) },
    (tls) => {
      tls.on('error', () => undefined);
      tls.once('data', () => {
        requests++;
        // Under the TLS layer: the bytes go out as they are.
        (tls as unknown as { _parent: Socket })._parent.write(BAD_RECORD);
      });
    },
  );
  server.on('connection', (socket: Socket) => raw.set(socket, socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of raw.values()) socket.destroy();
    server.close();
  });
  return { url: `https://127.0.0.1:${(server.address() as { port: number }).port}`, requests: () => requests };
}

test('a write whose TLS connection breaks after the request fails at once, in doubt, not as "not sent"', async (t) => {
  const { url, requests } = await breakingServer(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-tls-broken-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'p.yml');
  // The timeout only makes the old code's hang end: the fixed code fails as soon as the record comes.
  writeFileSync(
    file,
    `version: 1
name: p
servers:
  default: { url: "${url}", username: admin, password: admin, ca-file: "${tlsFixture('server-cert.pem')}", timeout: 10m }
steps:
  - id: clear
    uses: transaction-log/clear
`,
  );
  const report = join(dir, 'report.json');
  const r = await runCli(['run', file, '--report-json', report]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    counts: { inDoubt: number };
    steps: { error?: { code?: string; message?: string } }[];
  };
  assert.notEqual(json.steps[0]?.error?.code, 'API_TIMEOUT', 'failed when the record came, not at the timeout');
  assert.notEqual(json.steps[0]?.error?.code, 'API_TLS_FAILURE', 'not a handshake failure: the request went out');
  assert.equal(json.counts.inDoubt, 1, 'the server may have applied the write');
  assert.match(r.stdout, /in doubt: POST \/api\/devops\/v1\/transaction-log\/clear/);
  assert.equal(requests(), 1, 'sent once, never again');
});

test('a GET whose TLS connection breaks after the request is retried as a broken connection is', async (t) => {
  const { url, requests } = await breakingServer(t);
  const r = await runCli(
    ['api', 'GET', '/api/monitoring/v1/alerts', '--ca-file', tlsFixture('server-cert.pem'), '--timeout', '10m'],
    {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.doesNotMatch(r.stderr, /API_TIMEOUT/);
  assert.match(r.stderr, /code: API_CONNECTION_RESET/);
  assert.equal(requests(), 4, 'the first attempt and 3 retries');
});

test('through a proxy tunnel too, a write whose TLS connection breaks after the request fails at once, in doubt', async (t) => {
  const { url, requests } = await breakingServer(t);
  const port = Number(new URL(url).port);
  let tunnels = 0;
  const proxy = createHttpServer();
  proxy.on('connect', (_req, socket: Socket) => {
    tunnels += 1;
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.after(() => (proxy.closeAllConnections(), proxy.close()));
  // A remote name (a loopback server is never proxied): the proxy tunnels it to the server.
  const r = await runCli(['api', 'POST', '/api/devops/v1/transaction-log/clear', '--insecure', '--timeout', '10m'], {
    env: {
      ENGINE_URL: `https://erp.example.com:${port}`,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
    },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(tunnels, 1, 'the call went through the proxy');
  assert.doesNotMatch(r.stderr, /API_TIMEOUT|API_TLS_FAILURE/);
  assert.match(r.stderr, /may have reached the server/);
  assert.equal(requests(), 1);
});
