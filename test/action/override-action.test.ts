// The root action's override-freeze and override-reason inputs: inside a freeze, the write goes
// out only when the job's identity (GitHub's actor, with the repository and ref its OIDC claims
// mirror) meets a rule of the pipeline's override-freeze:, recorded in every report; from any
// other identity the action fails before anything is sent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const PIPELINE = `version: 1
freezes:
  always: { zone: UTC, dates: [{ from: 2000-01-01, to: 2100-01-01 }] }
override-freeze:
  - { actor: alice, repository: acme/erp, ref: refs/heads/main }
steps:
  - id: clear
    uses: transaction-log/clear
    expected: 5m
`;

test('input override-freeze: an allowed identity writes inside the freeze (shown as an override); another is refused, nothing sent', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const run = (actor: string, inputs: Record<string, string>) =>
    runActionInProcess(actionDef('enginectl'), {
      files: { 'release.yml': PIPELINE },
      inputs: { pipeline: 'release.yml', ...inputs },
      env: { ...env, GITHUB_ACTOR: actor },
    });
  const clears = () => emulator.requests.filter((r) => r.applied && r.path.endsWith('/transaction-log/clear')).length;

  const frozen = await run('alice', {});
  assert.equal(frozen.outputs.outcome, 'failure');
  assert.equal(clears(), 0);

  const mallory = await run('mallory', { 'override-freeze': 'true', 'override-reason': 'INC-9' });
  assert.notEqual(mallory.code, 0);
  assert.match(
    mallory.failed.join('\n'),
    /input override-freeze by mallory \(repository acme\/erp, ref refs\/heads\/main/,
  );
  assert.equal(clears(), 0, 'nothing was sent');

  const noReason = await run('alice', { 'override-freeze': 'true' });
  assert.match(noReason.failed.join('\n'), /input override-freeze goes with input override-reason/);

  const alice = await run('alice', { 'override-freeze': 'true', 'override-reason': 'INC-9' });
  assert.equal(alice.outputs.outcome, 'success', alice.failed.join('\n'));
  assert.equal(clears(), 1);
  assert.match(alice.summary, /window overridden by alice for "INC-9": freeze "always"/);
});

test("a re-run of alice's override job by mallory (GitHub keeps GITHUB_ACTOR, the re-runner is GITHUB_TRIGGERING_ACTOR): refused as mallory's, nothing sent; alice's own re-run goes out, recorded as hers", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', GITHUB_ACTOR: 'alice' };
  const run = (triggering: string) =>
    runActionInProcess(actionDef('enginectl'), {
      files: { 'release.yml': PIPELINE },
      inputs: { pipeline: 'release.yml', 'override-freeze': 'true', 'override-reason': 'INC-9' },
      env: { ...env, GITHUB_TRIGGERING_ACTOR: triggering },
    });
  const clears = () => emulator.requests.filter((r) => r.applied && r.path.endsWith('/transaction-log/clear')).length;

  const rerun = await run('mallory');
  assert.notEqual(rerun.code, 0, 'the override is the re-runner’s, who meets no rule');
  assert.match(rerun.failed.join('\n'), /input override-freeze by mallory \(repository acme\/erp/);
  assert.equal(clears(), 0, 'nothing was sent');

  const own = await run('alice');
  assert.equal(own.outputs.outcome, 'success', own.failed.join('\n'));
  assert.equal(clears(), 1);
  assert.match(own.summary, /window overridden by alice for "INC-9"/);
});
