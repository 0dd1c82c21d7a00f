// A server (an mTLS gateway) that requires a client certificate enginectl does not give. In TLS 1.3
// the client's handshake is done before the server reads its certificate: the server's refusal (an
// alert: certificate required) comes after the connection is open, and after the request was
// written. The server never read that request (it reads none before it accepts the handshake): a
// handshake failure, API_TLS_FAILURE, the write not sent, never retried as a broken connection.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createServer } from 'node:tls';
import { runCli } from '../helpers/cli.ts';
import { tlsFixture } from '../helpers/http.ts';

/** A TLS 1.3 server that requires a client certificate; counts the requests it reads. */
async function mtlsServer(
  t: TestContext,
  version: { minVersion: 'TLSv1.3' } | { maxVersion: 'TLSv1.2' } = { minVersion: 'TLSv1.3' },
): Promise<{ url: string; handshakes: () => number; requests: () => number }> {
  let handshakes = 0;
  let requests = 0;
  const server = createServer(
    {
      key: readFileSync(tlsFixture('server-key.pem')),
      cert: readFileSync(tlsFixture('server-cert.pem')),
      ca: readFileSync(tlsFixture('server-cert.pem')),
      requestCert: true,
      rejectUnauthorized: true,
      ...version,
    },
    (tls) => {
      tls.on('error', () => undefined);
      tls.on('data', () => (requests += 1));
    },
  );
  server.on('tlsClientError', () => (handshakes += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const port = (server.address() as { port: number }).port;
  return { url: `https://127.0.0.1:${port}`, handshakes: () => handshakes, requests: () => requests };
}

test('a write refused by a server asking for a client certificate is a TLS failure, not sent', async (t) => {
  const { url, handshakes, requests } = await mtlsServer(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-mtls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
name: p
servers:
  default: { url: "${url}", username: admin, password: admin, ca-file: "${tlsFixture('server-cert.pem')}" }
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
  assert.equal(json.steps[0]?.error?.code, 'API_TLS_FAILURE', JSON.stringify(json.steps[0]?.error));
  assert.match(json.steps[0]?.error?.message ?? '', /CERTIFICATE_REQUIRED/);
  assert.equal(json.counts.inDoubt, 0, 'the server refused the handshake: it read no request');
  assert.doesNotMatch(r.stdout, /in doubt/);
  assert.equal(requests(), 0);
  assert.equal(handshakes(), 1);
});

test('a GET refused by a server asking for a client certificate is not retried', async (t) => {
  const { url, handshakes } = await mtlsServer(t);
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/alerts', '--ca-file', tlsFixture('server-cert.pem')], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /code: API_TLS_FAILURE/);
  assert.doesNotMatch(r.stderr, /retry/i);
  assert.equal(handshakes(), 1, 'one handshake: a refused certificate is refused again');
});

test('in TLS 1.2 too, a server refusing the handshake for want of a client certificate is told as such', async (t) => {
  // TLS 1.2 refuses it within the handshake, with a generic alert (handshake failure).
  const { url } = await mtlsServer(t, { maxVersion: 'TLSv1.2' });
  const r = await runCli(
    ['api', 'POST', '/api/devops/v1/transaction-log/clear', '--ca-file', tlsFixture('server-cert.pem')],
    {
      env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    },
  );
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /code: API_TLS_FAILURE/);
  assert.match(r.stderr, /hint: .*client certificate/, 'the hint names what the server may want');
  assert.doesNotMatch(r.stderr, /may have reached the server/);
});
