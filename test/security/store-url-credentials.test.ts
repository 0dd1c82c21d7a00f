// A store URL that carries credentials is refused (an s3:// store takes them from the AWS chain,
// a file:// one has none), and no part of them reaches any output: a password holding a / (as
// AWS secret access keys do), a scheme with one slash too few, another scheme. The action also
// registers them with the runner's masking, as it does every credential input.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { runCli } from '../helpers/cli.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
/** The secret, and each piece of it a mask that stops at a / would leave. */
const PIECES = [SECRET, ...SECRET.split('/'), 'Hunter2Secret'];
const RUN = '20261204T000000Z-aaaaaaaaaaaa';
const URLS = [
  `s3://AKIAIOSFODNN7EXAMPLE:${SECRET}@bucket/prefix`,
  `s3://AKIAIOSFODNN7EXAMPLE:${SECRET}@bucket/prefix?region=eu-west-1`,
  's3:/deploy:Hunter2Secret@bucket/prefix',
  `file://deploy:${SECRET}@localhost/runs`,
  `gs://deploy:${SECRET}@bucket/runs`,
];

const leaked = (text: string) => PIECES.filter((p) => text.includes(p));

test('a store URL with credentials (a / in the password, one slash too few, file://, gs://) is refused, exit 2, and no piece of them is printed', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-store-cred-')), 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  for (const url of URLS)
    for (const [args, env] of [
      [['runs', '--store', url], {}],
      [['lease', 'status', 'prod', '--store', url], {}],
      [['report', '--run', RUN, '--store', url], {}],
      [['run', file, '--emulator'], { ENGINECTL_STORE: url }],
    ] as [string[], Record<string, string>][]) {
      const r = await runCli(args, { env: { ...env, AWS_REGION: 'eu-west-1' } });
      const said = `${args.join(' ')} (${url}): exit ${r.code}\n${r.stdout}${r.stderr}`;
      assert.equal(r.code, 2, said);
      assert.deepEqual(leaked(r.stdout + r.stderr), [], said);
      assert.match(r.stderr, /\*\*\*@/, said);
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, said);
    }
});

test('the action: a store input with credentials is refused, registered with the runner masking, and never printed', async () => {
  for (const url of URLS) {
    const run = await runActionInProcess(actionDef('enginectl'), {
      files: { 'release.yml': 'version: 1\nsteps:\n  - uses: transaction-log/clear\n' },
      inputs: { pipeline: 'release.yml', store: url },
      env: { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    });
    const { secrets, ...shown } = run;
    assert.notEqual(run.code, 0, url);
    assert.deepEqual(leaked(JSON.stringify(shown)), [], `${url}: ${JSON.stringify(shown.failed)}`);
    const password = url.includes('Hunter2Secret') ? 'Hunter2Secret' : SECRET;
    assert.ok(secrets.includes(password), `${url}: the password is not registered with the masking`);
  }
});
