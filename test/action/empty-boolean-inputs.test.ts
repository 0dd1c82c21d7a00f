// A boolean input given empty (`dry-run: ${{ inputs.dry-run }}` whose expression evaluated to '',
// or `dry-run:` with no value): GitHub fills an input's default only when its key is left out of
// with:, and passes '' otherwise. Read as its default, an empty dry-run ran for real and sent every
// write. Every boolean input (dry-run, override-freeze, continue-rollout, summary, pr-comment, a
// single-step action's flags) given empty is refused (exit 2) before anything is sent, naming the
// input and what to write. runAction in this process with a recording toolkit, the emulator over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, runnerLog } from '../helpers/toolkit.ts';

const PIPELINE = `version: 1
name: Release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: clear
    uses: transaction-log/clear
`;

test("an empty dry-run input of the root action (an expression that evaluated to ''): refused, exit 2, nothing sent, the input named and what to write", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'release.yml': PIPELINE },
    env: { PROD_TOKEN: 'prod-token' },
    inputs: { pipeline: 'release.yml', url, username: 'admin', password: 'admin', 'dry-run': '' },
  });
  const log = runnerLog(run);
  assert.equal(emulator.requests.length, 0, `nothing was sent: ${log}`);
  assert.equal(run.code, ExitCode.invalidInput, log);
  assert.equal(run.failed.length, 1, log);
  assert.match(run.failed[0]!, /^input dry-run is empty/, log);
  assert.match(log, /write dry-run: true, live or false/, log);
  assert.equal(run.outputs.outcome, 'failure');
});

test('every boolean input of the root action and of a single-step action given empty is refused before anything is sent (exit 2), naming it', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const cases: [string, Record<string, string>][] = [];
  for (const name of ['dry-run', 'override-freeze', 'continue-rollout', 'summary', 'pr-comment'])
    cases.push(['enginectl', { pipeline: 'release.yml', [name]: '' }]);
  for (const name of ['dry-run', 'continue-rollout', 'summary']) cases.push(['transaction-log-clear', { [name]: '' }]);
  const flags = Object.entries(actionDef('vfs-update').inputs).filter(([, i]) => i.default === 'false');
  assert.ok(flags.length > 3, 'vfs-update has its flags');
  for (const [name] of flags)
    cases.push(['vfs-update', { 'target-server': 'db', 'target-database': 'PROD', files: '1001', [name]: '' }]);
  for (const [id, inputs] of cases) {
    const def = actionDef(id as 'enginectl');
    const run = await runActionInProcess(def, {
      files: { 'release.yml': PIPELINE },
      env: { PROD_TOKEN: 'prod-token' },
      inputs: { url, username: 'admin', password: 'admin', ...inputs },
    });
    const name = Object.keys(inputs).at(-1)!;
    const what = `${id}, ${name}: ''`;
    assert.equal(run.code, ExitCode.invalidInput, `${what}: ${runnerLog(run)}`);
    assert.match(run.failed[0] ?? '', new RegExp(`^input ${name} is empty`), what);
  }
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});
