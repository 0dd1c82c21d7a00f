// A fleet lease another run holds (LEASE_HELD, the run not waiting): the hint says how to wait for
// it in the words of where the run was started. It said "give the lease a longer wait:" to the
// action's user, whose lease input takes no wait: the root action waits as the pipeline's lease:
// says (input lease takes its wait), a single-step action, which has no pipeline, never waits; on
// the command line --lease NAME takes the pipeline's lease: wait too.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, type TestContext } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease } from '../../src/store/lease.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runActionInProcess, runnerLog } from '../helpers/toolkit.ts';

const PIPELINE = 'version: 1\nname: Release\nsteps:\n  - id: clear\n    uses: transaction-log/clear\n';

async function heldStore(t: TestContext): Promise<string> {
  const store = pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-lease-hint-'))).href;
  const held = await acquireLease(new DirectoryStore(store), 'prod-fleet', {
    holder: { runId: 'other-run', actor: 'night-job', host: 'runner-9' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: { now: () => Date.now(), sleep: async () => undefined },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  t.after(() => held.release());
  return store;
}

test("the root action's input lease held by another run: the hint offers the pipeline's lease: wait (which input lease takes), not a wait the input cannot give", async (t) => {
  const { url } = await startEmulator(t);
  const store = await heldStore(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'release.yml': PIPELINE },
    inputs: { pipeline: 'release.yml', url, username: 'admin', password: 'admin', store, lease: 'prod-fleet' },
  });
  const log = runnerLog(run);
  assert.equal(run.code, ExitCode.invalidInput, log);
  assert.doesNotMatch(log, /give the lease a longer wait:/, log);
  assert.match(log, /hint: .*lease: \{ wait: 10m \}.*input lease takes its wait/, log);
});

test("a single-step action's input lease held by another run: the hint says it does not wait, and what to do", async (t) => {
  const { url } = await startEmulator(t);
  const store = await heldStore(t);
  const run = await runActionInProcess(actionDef('transaction-log-clear'), {
    inputs: { url, username: 'admin', password: 'admin', store, lease: 'prod-fleet' },
  });
  const log = runnerLog(run);
  assert.equal(run.code, ExitCode.invalidInput, log);
  assert.doesNotMatch(log, /give the lease a longer wait:/, log);
  assert.match(log, /hint: .*a single-step action does not wait for a lease/, log);
});

test("run --lease held by another run: the hint offers the pipeline's lease: wait, which --lease takes", async (t) => {
  const store = await heldStore(t);
  const file = join(mkdtempSync(join(tmpdir(), 'enginectl-lease-hint-')), 'p.yml');
  writeFileSync(file, PIPELINE);
  const r = await runCli(['run', file, '--emulator', '--store', store, '--lease', 'prod-fleet']);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /hint: .*lease: \{ wait: 10m \}.*--lease takes its wait/, r.stderr);
});
