// What a failed connection says: what is wrong, in the user's terms, and what to do (turning
// verification off is suggested last, and only for a test server). Real TLS, proxies and
// redirects on 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { EngineClient } from '../../src/api/index.ts';
import { runCli } from '../helpers/cli.ts';
import { listen, tlsFixture } from '../helpers/http.ts';
import { FAST_RETRY, rejection, startEmulator } from '../helpers/emulator.ts';

const fixture = tlsFixture;

async function tlsServer(t: TestContext, name: string): Promise<string> {
  const server = createHttpsServer(
    { key: readFileSync(fixture(`${name}-key.pem`)), cert: readFileSync(fixture(`${name}-cert.pem`)) },
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    },
  );
  return `https://127.0.0.1:${await listen(t, server as unknown as ReturnType<typeof createServer>)}`;
}

function client(
  t: TestContext,
  url: string,
  extra: Record<string, unknown> = {},
  env: Record<string, string> = {},
): EngineClient {
  const c = new EngineClient({ url, username: 'a', password: 'b', ...extra }, { retry: FAST_RETRY, env });
  t.after(() => c.close());
  return c;
}

test('TLS: a certificate for another host says so and names the hosts it is for; skipping verification is not suggested', async (t) => {
  const url = await tlsServer(t, 'mismatch');
  const error = await rejection(client(t, url, { caFile: fixture('mismatch-cert.pem') }).monitoring.alerts());
  assert.equal(error.code, 'API_TLS_FAILURE');
  assert.match(error.message, /TLS: the server's certificate is not for 127\.0\.0\.1: it names DNS:erp\.example\.com/);
  assert.match(String(error.hint), /use a host name the certificate names/);
  assert.doesNotMatch(String(error.hint), /insecure-skip-tls-verify/);
});

test('TLS: an expired certificate says since when', async (t) => {
  const url = await tlsServer(t, 'expired');
  const error = await rejection(client(t, url, { caFile: fixture('expired-cert.pem') }).monitoring.alerts());
  assert.equal(error.code, 'API_TLS_FAILURE');
  assert.match(
    error.message,
    /TLS: the server's certificate expired on Jan {2}1 00:00:00 2021 GMT \(CERT_HAS_EXPIRED\)/,
  );
  assert.match(String(error.hint), /renewed/);
  assert.doesNotMatch(String(error.hint), /insecure-skip-tls-verify/);
});

test('TLS: an unknown CA names ca-file first; a ca-file without a PEM certificate is invalid input (exit 2)', async (t) => {
  const url = await tlsServer(t, 'server');
  const error = await rejection(client(t, url).monitoring.alerts());
  assert.match(error.message, /signed by a CA this machine does not trust/);
  assert.match(
    String(error.hint),
    /^give the CA certificate \(PEM\) with the server's ca-file; only for a throw-away test server, insecure-skip-tls-verify: true$/,
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-ca-'));
  writeFileSync(join(dir, 'ca.der'), Buffer.from([0x30, 0x82, 0x01, 0x0a]));
  assert.throws(
    () => new EngineClient({ url, caFile: join(dir, 'ca.der') }),
    (e: Error & { exitCode?: number; code?: string }) =>
      e.exitCode === 2 && e.code === 'CA_FILE_INVALID' && /holds no PEM certificate/.test(e.message),
  );
});

test('a proxy asking for authentication (407) is its own error, names the variable to fix, and is not retried', async (t) => {
  let connects = 0;
  const proxy = createServer();
  proxy.on('connect', (_req, socket) => {
    connects += 1;
    socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n\r\n');
  });
  const port = await listen(t, proxy);
  const error = await rejection(
    client(t, 'https://erp.example.com', {}, { HTTPS_PROXY: `http://127.0.0.1:${port}` }).monitoring.alerts(),
  );
  assert.equal(error.code, 'API_PROXY');
  assert.match(error.message, /the proxy asks for authentication \(407 Proxy Authentication Required\)/);
  assert.match(String(error.hint), /HTTPS_PROXY or HTTP_PROXY \(http:\/\/user:password@proxy:port\)/);
  assert.equal(connects, 1, 'a GET is not retried after a 407');
  // Without a scheme (HTTPS_PROXY=proxy:3128, as curl reads it) the proxy is http://.
  const bare = await rejection(
    client(t, 'https://erp.example.com', {}, { https_proxy: `127.0.0.1:${port}` }).monitoring.alerts(),
  );
  assert.equal(bare.code, 'API_PROXY');
  assert.equal(connects, 2);
});

test('a redirect is never followed; the message shows where it points and why', async (t) => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(302, { location: 'https://login.example.com/sso?next=/api' }).end();
  });
  const port = await listen(t, server);
  const error = await rejection(client(t, `http://127.0.0.1:${port}`).monitoring.alerts());
  assert.equal(error.code, 'API_REDIRECT');
  assert.match(
    error.message,
    /the server redirects \(HTTP 302\) to https:\/\/login\.example\.com\/sso\?next=\/api; enginectl does not follow redirects/,
  );
  assert.match(String(error.hint), /could carry the credentials to another host/);
  assert.equal(hits, 1);
});

// 304 (a cache's answer to a conditional request enginectl never makes), 300 and 305 point nowhere
// to follow: not called redirects, and still never a success.
test('a 3xx that is no redirect (304, 300) is said to be what it is, not a redirect', async (t) => {
  for (const status of [304, 300]) {
    const server = createServer((_req, res) => res.writeHead(status).end());
    const port = await listen(t, server);
    const error = await rejection(client(t, `http://127.0.0.1:${port}`).monitoring.alerts());
    assert.equal(error.code, 'API_HTTP_STATUS', `HTTP ${status}`);
    assert.doesNotMatch(error.message, /redirect/, `HTTP ${status}`);
    assert.match(error.message, new RegExp(`HTTP ${status}.*no answer of the API`), `HTTP ${status}`);
  }
});

test('invalid server URLs are invalid input (exit 2), located in the file; credentials in a URL are the Basic credentials', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    'version: 1\nservers:\n  main: { url: "http://127.0.0.1:99999" }\nsteps:\n  - uses: monitoring/alerts\n',
  );
  const validate = await runCli(['validate', file]);
  assert.equal(validate.code, 2);
  assert.match(
    validate.stderr,
    new RegExp(`${file}:3:16 the URL "http://127.0.0.1:99999" has port 99999; ports go up to 65535`),
  );

  const plain = join(dir, 'plain.yml');
  writeFileSync(plain, 'version: 1\nsteps:\n  - uses: monitoring/alerts\n');
  const newline = await runCli(['run', plain], {
    env: { ENGINE_URL: 'http://127.0.0.1:8080/\nX-Injected: 1', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(newline.code, 2, newline.stderr);
  assert.match(newline.stderr, /the URL .* holds white space/);
  assert.doesNotMatch(newline.stderr, /internal error|\n\s+at /);

  const { url, emulator } = await startEmulator(t);
  const withUser = url.replace('http://', 'http://admin:admin@');
  const r = await runCli(['run', plain], { env: { ENGINE_URL: withUser } });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(emulator.requests.at(-1)!.status, 200, 'the URL credentials were sent');
  const twice = await runCli(['run', plain], {
    env: { ENGINE_URL: withUser, ENGINE_USERNAME: 'monitor', ENGINE_PASSWORD: 'monitor' },
  });
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /credentials are given twice, in the URL and as the username/);
});

test('insecure-skip-tls-verify that resolves to "yes" is refused, not silently false', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-flag-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    'version: 1\nservers:\n  main: { url: "https://127.0.0.1:9", insecure-skip-tls-verify: "${{ env.SKIP }}" }\nsteps:\n  - uses: monitoring/alerts\n',
  );
  const r = await runCli(['run', file], { env: { SKIP: 'yes' } });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /servers\.main\.insecure-skip-tls-verify: "yes" is neither true nor false/);
});

test('a proxy variable that is not a URL is invalid input (exit 2) naming the variable, never an internal error, and its value is not printed', async () => {
  const pipeline = join(mkdtempSync(join(tmpdir(), 'enginectl-bad-proxy-')), 'p.yml');
  writeFileSync(pipeline, 'version: 1\nsteps:\n  - uses: monitoring/alerts\n');
  const env = {
    ENGINE_URL: 'https://erp.example.com',
    ENGINE_USERNAME: 'deploy',
    ENGINE_PASSWORD: 'deploy-password-1',
  };
  for (const [name, value] of [
    ['HTTPS_PROXY', 'http://proxyuser:Pr0xyS3cret@proxy example.com:3128'],
    ['https_proxy', 'not a url'],
    ['HTTP_PROXY', '::::'],
  ] as const) {
    for (const args of [
      ['api', 'GET', '/api/monitoring/v1/alerts'],
      ['run', pipeline],
    ]) {
      // HTTP_PROXY is the proxy of http:// servers: one allowed plain HTTP.
      const r = await runCli(args, {
        env: {
          ...env,
          [name]: value,
          ...(name === 'HTTP_PROXY'
            ? { ENGINE_URL: 'http://erp.example.com', ENGINE_ALLOW_INSECURE_HTTP: 'true' }
            : {}),
        },
      });
      assert.equal(r.code, 2, `${name} ${args[0]}: ${r.stderr}${r.stdout}`);
      assert.match(
        r.stderr,
        new RegExp(
          `^enginectl: ${name} is not a proxy URL\\n {2}hint: set ${name} to the proxy's URL, e.g. http://proxy\\.example\\.com:3128 \\(with user:password@ when it asks for them\\), or unset it\\n`,
        ),
        r.stderr,
      );
      assert.doesNotMatch(r.stderr + r.stdout, /Pr0xyS3cret|internal error/);
    }
  }
});

test('a server URL that is not one, whose password holds an @, is refused without any part of the password (the user part ends at the last @)', async () => {
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/engines'], {
    env: { ENGINE_URL: 'https://admin:s3cr@tPassw0rd@host:99999' },
  });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /ENGINE_URL: the URL "https:\/\/\*\*\*@host:99999"/);
  assert.doesNotMatch(r.stdout + r.stderr, /s3cr|tPassw0rd/);
});
