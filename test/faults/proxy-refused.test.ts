// A proxy that refuses the connection (HTTPS_PROXY names a port nothing listens on) is said to be
// the proxy: the message names the address that refused, not the server's, and the hint the proxy
// variables. Before, it read as the server's own refusal ("check that the server is running and
// that the URL and port are right"), though the server was never reached.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { closedPort } from '../helpers/emulator.ts';

test('a proxy that refuses the connection is named as the proxy, not as the server', async () => {
  const port = await closedPort();
  const r = await runCli(['api', 'POST', '/api/devops/v1/transaction-log/clear'], {
    env: {
      ENGINE_URL: 'https://erp.example.com',
      ENGINE_USERNAME: 'deploy',
      ENGINE_PASSWORD: 'deploy-pass',
      HTTPS_PROXY: `http://127.0.0.1:${port}`,
    },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    new RegExp(
      `POST /api/devops/v1/transaction-log/clear on https://erp\\.example\\.com: connection refused by 127\\.0\\.0\\.1:${port}, not the server's port 443`,
    ),
  );
  assert.match(r.stderr, /hint: check that the proxy HTTPS_PROXY or HTTP_PROXY names is running/);
  assert.match(r.stderr, /code: API_CONNECTION_REFUSED/);
});
