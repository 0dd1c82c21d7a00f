// A store URL's query values (a signature, a token someone pasted from a pre-signed link, an
// endpoint carrying one) and its fragment never reach a message, in the CLI or the action (log,
// annotations, summary, failure): a refusal names the option, never its value, unless the value is
// known safe (a duration, path-style true or false, a region, an endpoint without query or
// credentials). They were printed verbatim: `file:///x?sig=...: unknown option "sig"`, a gs:// or
// https:// URL echoed whole as "not a run store", an ?endpoint= echoed whole and its hint giving
// the decoded value; an endpoint carrying a query or fragment is now refused before anything is sent.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { runCli } from '../helpers/cli.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const SECRET = 'SeCrEtSig0123456789';

function urls(dir: string): [string, Record<string, string>][] {
  return [
    [`file://${dir}?sig=${SECRET}`, {}],
    [`file://${dir}?grace=${SECRET}`, {}],
    [`file://${dir}#${SECRET}`, {}],
    [`gs://bucket/runs?sig=${SECRET}`, {}],
    [`https://bucket.s3.amazonaws.com/runs?X-Amz-Signature=${SECRET}`, {}],
    [`s3://bucket/runs?X-Amz-Signature=${SECRET}`, {}],
    [`s3://bucket/runs?endpoint=https://127.0.0.1:9/?sig%3D${SECRET}`, {}],
    [`s3://bucket/runs?endpoint=https://127.0.0.1:9/x%23${SECRET}`, {}],
    [`s3://bucket/runs?path-style=${SECRET}`, {}],
    [`s3://bucket/runs?timeout=${SECRET}`, {}],
    [`s3://bucket/runs?grace=${SECRET}`, {}],
    ['s3://bucket/runs', { AWS_ENDPOINT_URL_S3: `https://127.0.0.1:9/?sig=${SECRET}` }],
  ];
}

const AWS = { AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example-key' };

test("the CLI: a store URL's query values and fragment are never printed (run --store, ENGINECTL_STORE, runs --store)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-store-query-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  for (const [url, env] of urls(dir))
    for (const [args, more] of [
      [['run', file, '--emulator', '--store', url], {}],
      [['run', file, '--emulator'], { ENGINECTL_STORE: url }],
      [['runs', '--store', url], {}],
    ] as [string[], Record<string, string>][]) {
      const r = await runCli(args, { env: { ...AWS, ...env, ...more } });
      const said = `${args.join(' ')} (${url}): exit ${r.code}\n${r.stdout}${r.stderr}`;
      assert.ok(!(r.stdout + r.stderr).includes(SECRET), said);
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, said);
      if (!url.includes('#')) assert.equal(r.code, 2, said);
    }
});

test("the action: a store input's query values and fragment reach no log line, annotation, summary or failure", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-store-query-'));
  for (const [url, env] of urls(dir)) {
    const run = await runActionInProcess(actionDef('enginectl'), {
      files: { 'release.yml': 'version: 1\nsteps:\n  - uses: transaction-log/clear\n' },
      inputs: { pipeline: 'release.yml', store: url },
      env: { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', ...AWS, ...env },
    });
    const { secrets: _, ...shown } = run;
    const said = `${url}: ${JSON.stringify(shown.failed)}`;
    assert.ok(!JSON.stringify(shown).includes(SECRET), `${said}\n${JSON.stringify(shown)}`);
    if (!url.includes('#')) assert.equal(run.code, 2, said);
  }
});
