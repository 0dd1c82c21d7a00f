// An endpoint that answers every path alike (a web page, a captive portal, a proxy's login page:
// 200 and HTML to any request) is no store of keys: a lease's state, read as its listed keys and
// then the keys after them by name (a listing may lag), reads there a key at every number. It is
// refused once 16 keys past the listing were read and the last key a sequence could have answers
// too, never read forever.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { assertClean } from '../helpers/secrets.ts';

const KEYS = { AWS_ACCESS_KEY_ID: 'AKIAEVERYKEYTEST', AWS_SECRET_ACCESS_KEY: 'every-key-test-secret' };

/** A server that answers every request 200 with a web page; the paths it was asked. */
async function webPage(t: TestContext) {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Sign in to the network to go on</body></html>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

test('lease status over an endpoint that answers every path with a web page: STORE_REFUSED naming the key it answered, after a bounded number of reads', async (t) => {
  const page = await webPage(t);
  const store = `s3://runs-bucket/team?endpoint=${encodeURIComponent(page.endpoint)}&path-style=true&region=us-east-1`;
  const r = await runCli(['lease', 'status', 'prod-fleet', '--store', store], { env: KEYS });
  const said = r.stdout + r.stderr;
  assert.equal(r.code, 2, said);
  assert.match(r.stderr, /answers a key never written \(leases\/prod-fleet\/99999999\): it is not a store of keys/);
  assert.match(r.stderr, /code: STORE_REFUSED/);
  assert.match(r.stderr, /not a web page or a proxy that answers every path/);
  assert.ok(page.asked.length < 30, `${page.asked.length} requests`);
  assertClean('lease status', said, [KEYS.AWS_SECRET_ACCESS_KEY]);
});

test('runs --store over an endpoint that answers every path with a web page: STORE_REFUSED, not "no run" (its listing, HTML, reads as empty)', async (t) => {
  const page = await webPage(t);
  const store = `s3://runs-bucket/team?endpoint=${encodeURIComponent(page.endpoint)}&path-style=true&region=us-east-1`;
  const r = await runCli(['runs', '--store', store], { env: KEYS });
  const said = r.stdout + r.stderr;
  assert.equal(r.code, 2, said);
  assert.match(r.stderr, /answers a key never written \(runs\/\S+\): it is not a store of keys/);
  assert.match(r.stderr, /code: STORE_REFUSED/);
  assert.doesNotMatch(r.stdout, /no run/);
  assertClean('runs', said, [KEYS.AWS_SECRET_ACCESS_KEY]);
});
