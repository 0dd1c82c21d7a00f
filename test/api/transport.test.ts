// What reaches the wire: headers, proxying from the environment, TLS options, and the backoff.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import { test } from 'node:test';
import { EngineClient } from '../../src/api/index.ts';
import { backoffDelay } from '../../src/api/retry.ts';
import { VERSION } from '../../src/version.ts';
import { listen, tlsFixture } from '../helpers/http.ts';
import { FAST_RETRY, rejection, startEmulator } from '../helpers/emulator.ts';

const fixture = tlsFixture;

test('requests carry Basic credentials, the User-Agent, and JSON bodies as the spec says', async (t) => {
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ELC1.code');
    });
  });
  const port = await listen(t, server);
  const client = new EngineClient({ url: `http://127.0.0.1:${port}/erp/`, username: 'deploy', password: 'p:w' });
  t.after(() => client.close());
  await client.licensing.add('ELC1.code');
  const code = await client.licensing.create({
    licenseeId: 'a',
    licenseeName: 'b',
    expiration: '2027-01-01',
    licenses: [{ productKey: 1, quantity: 1, type: 'C' }],
  });
  assert.equal(code, 'ELC1.code');
  const [add, create] = seen;
  assert.equal(add!.headers.authorization, `Basic ${Buffer.from('deploy:p:w').toString('base64')}`);
  assert.equal(add!.headers['user-agent'], `enginectl/${VERSION}`);
  assert.equal(add!.headers['content-type'], 'text/plain');
  assert.equal(add!.body, 'ELC1.code');
  assert.equal(create!.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(create!.body).licenses, [{ productKey: 1, quantity: 1, type: 'C' }]);
});

test("the server URL's own path prefixes every API path", async (t) => {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const port = await listen(t, server);
  const client = new EngineClient({ url: `http://127.0.0.1:${port}/erp/`, username: 'a', password: 'b' });
  t.after(() => client.close());
  await client.classes.list(22, { entidade: 3001 });
  assert.deepEqual(paths, ['/erp/api/classes/v1/classes/22/entities?entidade=3001']);
});

test('HTTP_PROXY from the injected environment routes calls through the proxy; NO_PROXY bypasses it', async (t) => {
  const { url, emulator } = await startEmulator(t);
  let tunnels = 0;
  const proxy = createServer();
  proxy.on('connect', (req, socket) => {
    tunnels += 1;
    const upstream = connect(Number(new URL(url).port), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  const proxyPort = await listen(t, proxy);
  // A remote name (a loopback server is never proxied): the proxy tunnels it to the emulator.
  const remote = `http://erp.example.com:${new URL(url).port}`;
  const viaProxy = new EngineClient(
    { url: remote, username: 'admin', password: 'admin', allowInsecureHttp: true },
    { env: { HTTP_PROXY: `http://127.0.0.1:${proxyPort}` } },
  );
  t.after(() => viaProxy.close());
  assert.equal((await viaProxy.monitoring.engines()).length, 4);
  assert.equal(tunnels, 1);
  // NO_PROXY: the name is looked up directly (it resolves nowhere), not tunnelled.
  const bypass = new EngineClient(
    { url: remote, username: 'admin', password: 'admin', allowInsecureHttp: true },
    {
      env: { http_proxy: `http://127.0.0.1:${proxyPort}`, NO_PROXY: 'erp.example.com' },
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    },
  );
  t.after(() => bypass.close());
  await assert.rejects(bypass.monitoring.alerts());
  assert.equal(tunnels, 1, 'NO_PROXY host not proxied');
  assert.equal(emulator.count('GET'), 1);
});

test('TLS: a self-signed server is refused by default, trusted with ca-file, or with insecure-skip-tls-verify', async (t) => {
  const server = createHttpsServer(
    { key: readFileSync(fixture('server-key.pem')), cert: readFileSync(fixture('server-cert.pem')) },
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    },
  );
  const port = await listen(t, server as unknown as ReturnType<typeof createServer>);
  const url = `https://127.0.0.1:${port}`;
  const strict = new EngineClient({ url, username: 'a', password: 'b' }, { retry: FAST_RETRY });
  t.after(() => strict.close());
  const error = await rejection(strict.monitoring.alerts());
  assert.equal(error.code, 'API_TLS_FAILURE');
  assert.match(String(error.hint), /ca-file/);
  assert.equal(error.attempts, 1, 'a TLS failure is not transient');
  const withCa = new EngineClient({ url, username: 'a', password: 'b', caFile: fixture('server-cert.pem') });
  t.after(() => withCa.close());
  assert.deepEqual(await withCa.monitoring.alerts(), []);
  const insecure = new EngineClient({ url, username: 'a', password: 'b', insecureSkipTlsVerify: true });
  t.after(() => insecure.close());
  assert.deepEqual(await insecure.monitoring.alerts(), []);
});

test('an unreadable ca-file is a usage error (exit 2) that names the file', () => {
  assert.throws(
    () => new EngineClient({ url: 'https://x', caFile: '/nonexistent/ca.pem' }),
    (e: Error & { exitCode?: number }) =>
      e.exitCode === 2 && /cannot read the CA file \/nonexistent\/ca\.pem/.test(e.message),
  );
});

test('backoff doubles from the base with jitter, is capped, and honours a longer Retry-After', () => {
  const policy = { retries: 3, baseDelayMs: 500, maxDelayMs: 8000 };
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((n) => backoffDelay(policy, n, () => 1)),
    [500, 1000, 2000, 4000, 8000, 8000],
  );
  assert.equal(
    backoffDelay(policy, 1, () => 0),
    250,
    'jitter halves at most',
  );
  assert.equal(
    backoffDelay(policy, 1, () => 1, '3'),
    3000,
  );
  assert.equal(
    backoffDelay(policy, 1, () => 1, '3600'),
    8000,
    'capped',
  );
});

// RFC 9110 10.2.3: Retry-After is seconds or an HTTP date. A date is counted from the answer's own
// Date header (the server's clock, so this machine's clock skew does not matter), else from now.
test("a 503's Retry-After given as an HTTP date is honoured, counted from the answer's Date", async (t) => {
  const date = new Date('2026-12-05T10:00:00Z');
  let calls = 0;
  const server = createServer((_req, res) => {
    calls++;
    if (calls === 1) {
      res
        .writeHead(503, {
          date: date.toUTCString(),
          'retry-after': new Date(date.getTime() + 6_000).toUTCString(),
          'content-type': 'application/json',
        })
        .end('{"message":"restarting"}');
    } else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const port = await listen(t, server);
  const slept: number[] = [];
  const client = new EngineClient(
    { url: `http://127.0.0.1:${port}`, username: 'u', password: 'p' },
    { sleep: async (ms) => void slept.push(ms), random: () => 0 },
  );
  t.after(() => client.close());
  assert.deepEqual(await client.monitoring.alerts(), []);
  assert.deepEqual(slept, [6_000], 'waited until the date the server named, not the 250 ms backoff');
});
