// The action's own lines carry server text too: a rollout parked for a decision after its analysis
// failed says why in its last line ('"Fleet release" parked: waiting for ...'), and every later
// continue says what it still waits for, the gate's failure with the server's alert in it. Run
// through the action's entry function (runAction, in this process, on the simulated clock the
// emulator reads) and read as the runner reads @actions/core's output: no line of the server's
// makes GitHub act (a workflow command, add-mask, stop-commands), in any of the action's lines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { assertInertLog } from '../helpers/inert-log.ts';
import { runActionInProcess, runnerLog } from '../helpers/toolkit.ts';
import { parkFleet } from '../park/helpers.ts';

const ROOT = actionDef('enginectl');

/** An alert code holding workflow commands on lines of their own, as a hostile server would send it. */
const HOSTILE_CODE = [
  'disk_full',
  '::warning title=Approved by SRE::PWNED rollout verified, safe to continue',
  '::add-mask::enginectl',
  '::stop-commands::PWNED',
  '##vso[task.setvariable variable=PWNED]1',
  '\x1b]8;;https://evil.example\x07PWNED-OSC\x1b]8;;\x07',
].join('\n');

test("the action's parked lines (its last line, and a later continue's 'still parked') are inert: a server's alert text commands nothing", async (t) => {
  const f = await parkFleet(
    t,
    2,
    `  over: site\n  waves: [[site-001], rest]\n  on-failure: decide\n  analysis: { gates: [alerts], count: 1 }`,
  );
  // The canary goes bad a minute after its update: its gate in the wave passes, the analysis fails.
  f.sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/system',
    site: 'site-001',
    times: 1,
    raiseAlert: { severity: 'critical', code: HOSTILE_CODE },
    afterMs: 60_000,
  });
  const job = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'fleet.yml': readFileSync(f.file, 'utf8') },
      inputs: { pipeline: 'fleet.yml', store: f.storeUrl, ...inputs },
      env: f.env,
      clock: f.clock,
    });
  const first = await job({});
  assert.equal(first.code, ExitCode.ok, first.failed.join('\n'));
  assert.equal(first.outputs.outcome, 'parked');
  assert.ok(
    first.log.some((l) => /parked: waiting for a decision on wave 1: .*disk_full/.test(l)),
    first.log.join('\n'),
  );
  assertInertLog('the parked run', runnerLog(first));

  const again = await job({ continue: first.outputs['run-id']! });
  assert.equal(again.outputs.outcome, 'parked', 'no decision yet: parked again');
  assert.ok(
    again.log.some((l) => /^still parked: .*disk_full/.test(l)),
    again.log.join('\n'),
  );
  assertInertLog('the continue before a decision', runnerLog(again));
});
