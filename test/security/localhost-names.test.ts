// A server named `localhost` or `*.localhost` is taken for this machine: its Basic credentials may
// go over plain http:// and never through HTTP_PROXY (insecure-http.ts, dispatcher.ts). So it must
// be this machine whatever DNS says: RFC 6761 6.3 ("name resolution APIs and libraries SHOULD
// recognize localhost names as special and SHOULD always return the IP loopback address"). Before,
// the name went to the system resolver (glibc asks DNS for any name /etc/hosts lacks): a resolver
// that answers every name (NXDOMAIN rewriting) or a hostile one had the credentials sent in clear
// to an address of its choice. On this test's machines the name then did not resolve at all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

test('a server named *.localhost is reached on the loopback address, never through DNS', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const port = new URL(url).port;
  const r = await runCli(['api', 'GET', '/api/monitoring/v1/alerts'], {
    env: {
      ENGINE_URL: `http://enginectl-test-site.localhost:${port}`,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
      // Loopback is never proxied: were the name sent to the proxy, the call would fail.
      HTTP_PROXY: 'http://127.0.0.1:9',
    },
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(emulator.requests.length, 1, 'the call reached the server on 127.0.0.1');
});
