// Two outputs whose CI variable names are the same (step ids a-b and a_b both give A_B_STATUS;
// matrix values prod-eu and prod_eu alike): a later job would read either one's value under the
// other's name. Neither is written, and the run says which outputs share the name.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: clash
steps:
  - id: a-b
    uses: api/request
    with: { path: /api/licensing/v1/products/1 }
  - id: a_b
    uses: api/request
    with: { path: /api/licensing/v1/products/9, expect-status: [404] }
  - id: clear
    uses: transaction-log/clear
`;

test('outputs whose CI variable names clash are written under neither name, and said: GitLab dotenv and Azure setvariable', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-clash-'));
  const file = join(dir, 'clash.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const dotenv = join(dir, 'out.env');
  const gitlab = await runCli(['run', file, '--dotenv', dotenv], { env: { ...env, GITLAB_CI: 'true' } });
  assert.equal(gitlab.code, 0, gitlab.stdout + gitlab.stderr);
  const lines = readFileSync(dotenv, 'utf8').split('\n').filter(Boolean);
  assert.deepEqual(
    lines.filter((l) => l.startsWith('A_B_')),
    [],
    'neither step status is written under a name both have',
  );
  assert.ok(lines.includes('CLEAR_STATUS=200'), lines.join('\n'));
  assert.match(
    gitlab.stdout + gitlab.stderr,
    /A_B_STATUS left out \(the name of step a-b's status and step a_b's status: neither is written; give the steps ids \(or the matrix values\) that differ in more than punctuation or case\)/,
  );
  const azure = await runCli(['run', file], { env: { ...env, TF_BUILD: 'True', AGENT_TEMPDIRECTORY: tmpdir() } });
  assert.equal(azure.code, 0, azure.stdout + azure.stderr);
  assert.doesNotMatch(azure.stdout, /setvariable variable=A_B_/);
  assert.match(azure.stdout, /setvariable variable=CLEAR_STATUS;isoutput=true\]200/);
  assert.match(
    azure.stdout + azure.stderr,
    /A_B_STATUS left out \(the name of step a-b's status and step a_b's status/,
  );
});
