// An action's dry run (dry-run: true) sends nothing, so it needs no secret's value, as the CLI's
// dry run does not (test/cli/dry-run-secrets.test.ts): a secret the pipeline reads, or a single-step
// action's credential input, left unset stands in, masked, and a warning names it. A live plan
// (dry-run: live) sends GET requests: it still needs them. runAction in this process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const PIPELINE = `version: 1
name: Release
servers:
  main: { url: https://erp.example.com, username: ci, password: "\${{ secrets.ENGINE_PASSWORD }}" }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`;

const warned = (run: { warnings: { message: string }[] }) => run.warnings.map((w) => w.message);

test('the root action with dry-run: true and no secret set shows the calls, the token masked, and names the secrets not set', async () => {
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'release.yml': PIPELINE },
    inputs: { pipeline: 'release.yml', 'dry-run': 'true' },
  });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  assert.equal(run.outputs.outcome, 'dry-run');
  assert.match(run.summary, /"targetAuthToken": "\*\*\*"/);
  assert.deepEqual(warned(run), [
    'not set: secrets.ENGINE_PASSWORD, secrets.PROD_TOKEN; the dry run shows them masked (it sends nothing), and a run needs them',
  ]);
  const live = await runActionInProcess(actionDef('enginectl'), {
    files: { 'release.yml': PIPELINE },
    inputs: { pipeline: 'release.yml', 'dry-run': 'live' },
  });
  assert.equal(live.code, ExitCode.invalidInput, 'a live plan sends GET requests with the credentials: it needs them');
  assert.match(live.failed.join('\n'), /problem\(s\) in release\.yml/);
});

test('a single-step action with dry-run: true and no target credential shows the call, the token masked, and names the input', async () => {
  const run = await runActionInProcess(actionDef('vfs-update'), {
    inputs: {
      url: 'https://erp.example.com',
      'dry-run': 'true',
      files: '1001',
      'target-server': 'prod-db.example.com',
      'target-database': 'PROD',
    },
  });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  assert.match(run.summary, /"targetAuthToken": "\*\*\*"/);
  assert.deepEqual(warned(run), [
    'not set: input target-token; the dry run shows it masked (it sends nothing), and a run needs it',
  ]);
  // A user name without its password: the password stands in.
  const user = await runActionInProcess(actionDef('vfs-update'), {
    inputs: {
      url: 'https://erp.example.com',
      'dry-run': 'true',
      files: '1001',
      'target-server': 'prod-db.example.com',
      'target-database': 'PROD',
      'target-username': 'deploy',
    },
  });
  assert.equal(user.code, ExitCode.ok, user.failed.join('\n'));
  assert.match(user.summary, /"targetPassword": "\*\*\*"/);
  assert.deepEqual(warned(user), [
    'not set: input target-password; the dry run shows it masked (it sends nothing), and a run needs it',
  ]);
});
