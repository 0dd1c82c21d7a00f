// A run the action refuses for what is not its input (exit 2: a fleet lease another run holds,
// LEASE_HELD; a resume of another run's inputs, RESUME_REFUSED) is headed in the job summary by
// what refused it, not "invalid input", which sent the user to inputs that were right. runAction
// in this process with a recording toolkit, a directory store, the emulator over HTTP.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease } from '../../src/store/lease.ts';
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

const storeUrl = () => pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-refused-'))).href;

test('a fleet lease another run holds (LEASE_HELD): the summary says refused and the code, not invalid input; nothing sent', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const store = storeUrl();
  const held = await acquireLease(new DirectoryStore(store), 'prod-fleet', {
    holder: { runId: 'other-run', actor: 'night-job', host: 'runner-9' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: { now: () => Date.now(), sleep: async () => undefined },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  t.after(() => held.release());
  const run = await runActionInProcess(actionDef('transaction-log-clear'), {
    inputs: { url, username: 'admin', password: 'admin', store, lease: 'prod-fleet' },
  });
  const log = runnerLog(run);
  assert.equal(run.code, ExitCode.invalidInput, log);
  assert.doesNotMatch(run.summary, /invalid input/, run.summary);
  assert.match(run.summary, /^## ❌ enginectl: refused \(LEASE_HELD\)/, run.summary);
  assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 0, 'nothing was sent');
});

test('a resume of a journal with other vars (RESUME_REFUSED): the summary says refused and the code, not invalid input', async (t) => {
  const { url } = await startEmulator(t);
  const first = await runActionInProcess(actionDef('enginectl'), {
    files: { 'release.yml': PIPELINE },
    inputs: { pipeline: 'release.yml', url, username: 'admin', password: 'admin' },
  });
  assert.equal(first.code, ExitCode.ok, runnerLog(first));
  const resumed = await runActionInProcess(actionDef('enginectl'), {
    workspace: first.workspace,
    inputs: {
      pipeline: 'release.yml',
      url,
      username: 'admin',
      password: 'admin',
      journal: first.outputs.journal!,
      vars: 'release=2',
    },
  });
  const log = runnerLog(resumed);
  assert.equal(resumed.code, ExitCode.invalidInput, log);
  assert.doesNotMatch(resumed.summary, /invalid input/, resumed.summary);
  assert.match(resumed.summary, /^## ❌ enginectl: refused \(RESUME_REFUSED\)/, resumed.summary);
});
