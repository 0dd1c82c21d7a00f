// A session cookie a server (or the gateway before it) sets is a credential: whoever has it acts as
// the user until it expires. `enginectl api -i` shows the response headers, as `curl -i` does, but
// its output lands in a CI log: a cookie's value is masked there, its name and attributes shown.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const SESSION = 'f3a9c2e1d4b5a6978877665544332211';
const ROUTE = 'node-7.zone-b';

async function cookieServer(t: TestContext): Promise<string> {
  const server = createServer((_req, res) => {
    res.setHeader('set-cookie', [
      `JSESSIONID=${SESSION}; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly; Secure`,
      `ROUTE=${ROUTE}`,
    ]);
    res.setHeader('authentication-info', `nextnonce="${SESSION}"`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('api -i masks the values of the cookies a server sets, and keeps their names and attributes', async (t) => {
  const url = await cookieServer(t);
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/alerts', '-i'], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(
    r.stdout + r.stderr,
    new RegExp(`${SESSION}|${ROUTE.replace(/\./g, '\\.')}`),
    'no cookie value shown',
  );
  assert.match(
    r.stdout,
    /^set-cookie: JSESSIONID=\*\*\*; Path=\/; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly; Secure, ROUTE=\*\*\*$/m,
  );
  assert.match(r.stdout, /^authentication-info: \*\*\*$/m);
  assert.match(r.stdout, /^content-type: application\/json$/m, 'other headers as sent');
});

test('api -i masks the value of a cookie whatever its name: brackets (PHP), none at all, spaces around its =', async (t) => {
  const values = [
    'c4e1a9f0b2d3e4f5a6b7c8d9e0f1a2b3',
    'd5f2b0a1c3e4f5a6b7c8d9e0f1a2b3c4',
    'e6a3c1b2d4f5a6b7c8d9e0f1a2b3c4d5',
  ];
  const server = createServer((_req, res) => {
    res.setHeader('set-cookie', [
      `cart[token]=${values[0]}; Path=/`,
      `${values[1]}; Path=/; Secure`,
      `sid = ${values[2]}; HttpOnly`,
    ]);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/alerts', '-i'], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, new RegExp(values.join('|')), 'no cookie value shown');
  assert.match(
    r.stdout,
    /^set-cookie: cart\[token\]=\*\*\*; Path=\/, \*\*\*; Path=\/; Secure, sid =\*\*\*; HttpOnly$/m,
  );
});
