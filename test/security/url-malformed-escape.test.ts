// A `%` in a URL's user part that starts no %XX escape (`https://deploy:pa%zz@host`) cannot be
// decoded into the credentials it stands for: a server URL so written is invalid input (exit 2,
// BAD_SERVER_URL; `validate` finds it in the file), a proxy variable so written is BAD_PROXY, each
// without showing the password. Before, `validate` said the file was valid, and `run` and `api`
// ended with "enginectl: internal error: URI malformed" (exit 1) before the first call.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PASSWORD = 'pa%zzw0rd';

test('a URL whose user part holds a malformed %-escape is invalid input, its password unshown: validate, run, api, a proxy', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-escape-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const literal = join(dir, 'literal.yml');
  writeFileSync(
    literal,
    `version: 1\nservers:\n  main: { url: "https://deploy:${PASSWORD}@erp.example.com" }\nsteps:\n  - uses: monitoring/alerts\n`,
  );
  const fromSecret = join(dir, 'secret.yml');
  writeFileSync(
    fromSecret,
    'version: 1\nservers:\n  main: { url: "${{ secrets.PROD_URL }}" }\nsteps:\n  - uses: monitoring/alerts\n',
  );
  const runs = [
    await runCli(['validate', literal]),
    await runCli(['run', literal]),
    await runCli(['run', fromSecret], { env: { PROD_URL: `https://deploy:${PASSWORD}@erp.example.com` } }),
    await runCli(['api', 'GET', '/api/monitoring/v1/alerts'], {
      env: { ENGINE_URL: `https://deploy:${PASSWORD}@erp.example.com` },
    }),
  ];
  for (const r of runs) {
    const out = r.stdout + r.stderr;
    assert.equal(r.code, 2, out);
    assert.doesNotMatch(out, /internal error/, out);
    assert.match(out, /% that starts no %XX escape/, out);
    assert.ok(!out.includes('zzw0rd'), out);
  }
  const proxied = await runCli(['api', 'GET', '/api/monitoring/v1/alerts'], {
    env: {
      ENGINE_URL: 'https://erp.example.com',
      ENGINE_USERNAME: 'deploy',
      ENGINE_PASSWORD: 'deploy-pass',
      HTTPS_PROXY: `http://proxy-user:${PASSWORD}@127.0.0.1:9`,
    },
  });
  assert.equal(proxied.code, 2, proxied.stdout + proxied.stderr);
  assert.match(proxied.stderr, /BAD_PROXY/);
  assert.ok(!(proxied.stdout + proxied.stderr).includes('zzw0rd'));
});
