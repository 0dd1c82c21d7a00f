// An API server URL whose password holds a / (written as is, not %2F) does not parse: the URL's
// authority ends at the first /. Every message that shows it hides its user part up to its last
// @, as a store URL's is (test/security/store-url-credentials.test.ts), and the gutter under an
// invalid pipeline's finding masks the password the pipeline writes: no piece of the password is
// printed, whether the URL is a pipeline's server or ENGINE_URL, and whatever the command.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const PASSWORD = 'Kx9vQ2/Zp7Lm4/Rt8Wn';
/** The password, and each piece of it a mask that stops at a / would leave. */
const PIECES = [PASSWORD, ...PASSWORD.split('/')];
const URL = `https://deploy:${PASSWORD}@erp.example.com`;

const leaked = (text: string) => PIECES.filter((p) => text.includes(p));

test("an API server URL whose password holds a / is refused naming the URL with its user part hidden: no piece of the password in validate's, run's, plan's or api's output", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-url-slash-'));
  const inPipeline = join(dir, 'servers.yml');
  writeFileSync(
    inPipeline,
    `version: 1
servers:
  prod: { url: "${URL}" }
steps:
  - uses: monitoring/alerts
    server: prod
    with: { fail-on: critical }
`,
  );
  const fromEnv = join(dir, 'default.yml');
  writeFileSync(fromEnv, 'version: 1\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: critical }\n');
  for (const [args, env] of [
    [['validate', inPipeline], {}],
    [['run', inPipeline], {}],
    [['plan', inPipeline], {}],
    [['run', fromEnv], { ENGINE_URL: URL }],
    [['api', 'GET', '/api/monitoring/v1/alerts'], { ENGINE_URL: URL }],
  ] as [string[], Record<string, string>][]) {
    const r = await runCli(args, { env });
    const said = `${args.join(' ')}${env.ENGINE_URL ? ' (ENGINE_URL)' : ''}: exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, said);
    assert.match(
      r.stdout + r.stderr,
      /the URL "https:\/\/\*\*\*@erp\.example\.com" is not a URL \(a \/ in its password is written %2F\)/,
      said,
    );
    assert.deepEqual(leaked(r.stdout + r.stderr), [], said);
  }
});
