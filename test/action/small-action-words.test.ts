// Two small things an action's user was told wrong: a 401 named only ENGINE_USERNAME /
// ENGINE_PASSWORD, not the username and password inputs the action's user gives; and a resume
// from the store refused at journal setup (RESUME_REFUSED) set no run-id output, though the run
// named is the store's. runAction in this process, the emulator over HTTP, a directory store.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, runnerLog } from '../helpers/toolkit.ts';

const PIPELINE = `version: 1
name: Release
vars:
  release: { default: "1" }
steps:
  - id: clear
    uses: transaction-log/clear
`;

test('a 401 in an action: the hint names the username and password inputs', async (t) => {
  const { url } = await startEmulator(t);
  const run = await runActionInProcess(actionDef('transaction-log-clear'), {
    inputs: { url, username: 'admin', password: 'not-the-password' },
  });
  const log = runnerLog(run);
  assert.equal(run.code, ExitCode.failed, log);
  assert.match(log, /authentication failed \(401\)/, log);
  assert.match(log, /hint: .*the username and password inputs/, log);
});

test("a resume from the store refused at journal setup (RESUME_REFUSED): the run-id output names the store's run", async (t) => {
  const { url } = await startEmulator(t);
  const store = pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-run-id-'))).href;
  const inputs = { pipeline: 'release.yml', url, username: 'admin', password: 'admin', store };
  const first = await runActionInProcess(actionDef('enginectl'), { files: { 'release.yml': PIPELINE }, inputs });
  assert.equal(first.code, ExitCode.ok, runnerLog(first));
  const id = first.outputs['run-id']!;
  assert.ok(id, 'the first run has its id');
  const resumed = await runActionInProcess(actionDef('enginectl'), {
    workspace: first.workspace,
    inputs: { ...inputs, journal: id, vars: 'release=2' },
  });
  assert.equal(resumed.code, ExitCode.invalidInput, runnerLog(resumed));
  assert.match(resumed.summary, /RESUME_REFUSED/, resumed.summary);
  assert.equal(resumed.outputs['run-id'], id);
});
