// An option that only means something with another is refused without it, before anything is read
// or recorded, rather than silently dropped: decide --reason with no decision (a decision's why,
// recorded with nothing), shard --image without --format k8s (no Job to put it in), the action's
// override-reason without override-freeze (a reason for an override never made).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

test('decide --reason with no decision is refused: a reason goes with a decision (listing records nothing)', async () => {
  const r = await runCli([
    'decide',
    '--store',
    'file:///nonexistent-enginectl-store',
    '--run',
    'R1',
    '--reason',
    'looked',
  ]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /decide: --reason goes with a decision/);
});

test('shard --image without --format k8s is refused: only a Kubernetes Job has an image', async () => {
  const r = await runCli([
    'shard',
    'fleet.yml',
    '--store',
    'file:///nonexistent-enginectl-store',
    '--shards',
    '2',
    '--image',
    'registry/enginectl:1',
  ]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /shard: --image goes with --format k8s/);
});

test('input override-reason without override-freeze is refused before anything is sent', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'p.yml': 'version: 1\nsteps:\n  - { id: clear, uses: transaction-log/clear }\n' },
    inputs: { pipeline: 'p.yml', 'override-reason': 'INC-9' },
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
  });
  assert.equal(run.code, ExitCode.invalidInput, run.failed.join('\n'));
  assert.match(run.failed.join('\n'), /input override-reason goes with input override-freeze: true/);
  assert.equal(emulator.requests.filter((r) => r.method === 'POST').length, 0);
});
