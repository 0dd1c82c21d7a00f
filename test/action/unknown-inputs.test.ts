// A mistyped input name in a workflow's with: (`dry_run: true`, `dryrun: true`) reaches the action
// as a variable no input reads (INPUT_DRY_RUN; GitHub names an input's variable INPUT_ and the name
// in upper case, spaces as _, hyphens kept: dry-run is INPUT_DRY-RUN) and GitHub only warns of it:
// it was ignored, and the run wrote for real. An INPUT_ variable that names no input of the action
// being run is refused (exit 2) before anything is sent, naming it and the nearest real input.
// runAction in this process, the runner's environment holding the variable, the emulator over HTTP.
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

test('INPUT_DRY_RUN or INPUT_DRYRUN (dry_run: or dryrun: in with:): refused before anything is sent (exit 2), naming the variable and dry-run, for the root action and a single-step one', async (t) => {
  const { url, emulator } = await startEmulator(t);
  for (const variable of ['INPUT_DRY_RUN', 'INPUT_DRYRUN'])
    for (const def of [actionDef('enginectl'), actionDef('transaction-log-clear')]) {
      const run = await runActionInProcess(def, {
        files: { 'release.yml': PIPELINE },
        env: { PROD_TOKEN: 'prod-token', [variable]: 'true' },
        inputs: { ...(def.uses ? {} : { pipeline: 'release.yml' }), url, username: 'admin', password: 'admin' },
      });
      const log = runnerLog(run);
      const what = `${def.id}, ${variable}`;
      assert.equal(emulator.requests.length, 0, `${what}: nothing was sent: ${log}`);
      assert.equal(run.code, ExitCode.invalidInput, `${what}: ${log}`);
      assert.match(run.failed[0] ?? '', new RegExp(`^${variable} names no input of `), `${what}: ${log}`);
      assert.match(log, /did you mean dry-run\?/, `${what}: ${log}`);
    }
});

test("an input of another action (files: given to the transaction-log-clear action), or one far from every name: refused, naming it; the action's own inputs, as the runner passes them, are not", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const refused = await runActionInProcess(actionDef('transaction-log-clear'), {
    env: { INPUT_FILES: '1001' },
    inputs: { url, username: 'admin', password: 'admin' },
  });
  assert.equal(refused.code, ExitCode.invalidInput, runnerLog(refused));
  assert.match(refused.failed[0] ?? '', /^INPUT_FILES names no input of /);
  const far = await runActionInProcess(actionDef('transaction-log-clear'), {
    env: { INPUT_QUUX_XYZZY_PLUGH: 'x' },
    inputs: { url, username: 'admin', password: 'admin' },
  });
  assert.equal(far.code, ExitCode.invalidInput, runnerLog(far));
  assert.match(runnerLog(far), /its inputs are url, username, password, dry-run/);
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
  // Every input of the action as GitHub passes it (defaults filled in): runs.
  const def = actionDef('transaction-log-clear');
  const env = Object.fromEntries(
    Object.entries(def.inputs).map(([name, i]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, i.default ?? '']),
  );
  const ok = await runActionInProcess(def, { env, inputs: { url, username: 'admin', password: 'admin' } });
  assert.equal(ok.code, ExitCode.ok, runnerLog(ok));
});
