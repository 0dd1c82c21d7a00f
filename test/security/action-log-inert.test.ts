// The action's own lines carry server text too: a rollout parked for a decision after its analysis
// failed says why in its last line ('"Fleet release" parked: waiting for ...'), and every later
// continue says what it still waits for, the gate's failure with the server's alert in it. Run
// through the action's entry function (runAction, in this process, on the simulated clock the
// emulator reads) and read as the runner reads @actions/core's output: no line of the server's
// makes GitHub act (a workflow command, add-mask, stop-commands), in any of the action's lines.
// So too a warning past GitHub's annotations of a step, printed as a line of the log.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ANNOTATIONS_A_STEP } from '../../src/ci/annotation-budget.ts';
import { ExitCode } from '../../src/errors.ts';
import { startEmulator } from '../helpers/emulator.ts';
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
    `  over: site\n  waves: [[site-001], rest]\n  on-failure: decide\n  analysis: { gates: [alerts], count: 2 }`,
  );
  // The canary goes bad a minute after its update: its gate in the wave passes, the analysis fails
  // (monitoring lists the alert from its next refresh, 1 to 3 minutes after the update: round 1 or
  // 2, whatever the clock's phase).
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

test("a warning held back by the annotation budget is a line of the log, inert: a GitHub API's error quoted in it commands nothing", async (t) => {
  // Nine warnings of the server's fill the step's warning annotations (one kept for the count).
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({
    method: 'POST',
    path: '/api/devops/v1/update/vfs',
    status: 200,
    times: 1,
    contentType: 'application/json',
    body: JSON.stringify({
      success: true,
      report: '# VFS update',
      warnings: Array.from({ length: ANNOTATIONS_A_STEP - 1 }, (_, i) => ({ code: `W${i}`, message: `warning ${i}` })),
    }),
  });
  // Then the PR comment fails: a GitHub API (or one in its place) whose error carries commands on lines of their own.
  const github = createServer((req, res) => {
    req.resume();
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: `Resource not accessible\n${HOSTILE_CODE}` }));
  });
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => (github.close(() => resolve()), github.closeAllConnections())));
  const run = await runActionInProcess(ROOT, {
    files: {
      'p.yml': `version: 1
name: Held back
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - { id: vfs, name: VFS to prod, uses: update/vfs, with: { target: prod, files: [1001] } }
`,
    },
    inputs: { pipeline: 'p.yml', url, username: 'admin', password: 'admin', 'pr-comment': 'true' },
    event: { pull_request: { number: 7 } },
    githubApi: `http://127.0.0.1:${(github.address() as AddressInfo).port}`,
  });
  assert.equal(run.code, ExitCode.ok, run.failed.join('\n'));
  // The step's warning annotations are the server's nine and the one held back (shown alone as the step ends).
  assert.equal(run.warnings.length, ANNOTATIONS_A_STEP, JSON.stringify(run.warnings));
  const held = run.log.filter((l) => l.startsWith('warning: enginectl: pr-comment: the comment could not be written'));
  assert.equal(held.length, 1, run.log.join('\n'));
  assert.match(held[0]!, /Resource not accessible.*PWNED/s, 'the error is shown');
  assertInertLog('the held-back warning', runnerLog(run));
});
