// A parked run's jobs through the GitHub Action, as the scheduled continue job of the docs runs them:
// a continue whose run still waits for a decision, and a bake's early continue. Before, the first set
// only run-id and outcome (no report, outputs or journal output), wrote no job summary and gave no
// way on in its log; a parked run's last log line said "success", and a bake's park said "decide".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { ExitCode } from '../../src/errors.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { parkFleet } from './helpers.ts';

const ROOT = actionDef('enginectl');

test('input continue of a run that still waits for a decision: every documented output set, a summary saying what it waits for and how to decide, nothing sent', async (t) => {
  const f = await parkFleet(t, 3, '  over: site\n  waves: [[site-001], rest]\n  max-failures: 0\n  on-failure: decide');
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', site: 'site-002', status: 400, times: 1 });
  const job = (inputs: Record<string, string>) =>
    runActionInProcess(ROOT, {
      files: { 'fleet.yml': readFileSync(f.file, 'utf8') },
      inputs: { pipeline: 'fleet.yml', store: f.storeUrl, ...inputs },
      env: f.env,
      clock: f.clock,
    });
  const first = await job({});
  assert.equal(first.outputs.outcome, 'parked', first.failed.join('\n'));
  const id = first.outputs['run-id']!;

  const again = await job({ continue: id });
  assert.equal(again.code, ExitCode.ok, again.failed.join('\n'));
  assert.deepEqual(again.failed, []);
  assert.equal(again.outputs.outcome, 'parked');
  assert.equal(again.outputs['run-id'], id);
  for (const name of ['report', 'outputs', 'journal'])
    assert.ok(name in again.outputs, `output ${name} is set: ${JSON.stringify(again.outputs)}`);
  assert.equal(again.outputs.outputs, '{}');
  assert.match(again.summary, /^## ⏸️ .*Fleet release.*: still parked/m, again.summary);
  assert.match(again.summary, /waiting for a decision on site site-002/);
  assert.match(again.summary, new RegExp(`enginectl decide --store URL --run ${id}`));
  assert.ok(
    again.log.some((l) => new RegExp(`decide first: enginectl decide --store URL --run ${id}`).test(l)),
    again.log.join('\n'),
  );
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'nothing more sent');
});

test("a parked run's last log lines: its outcome is parked (never success), and a bake's park says to wait for the bake (no decision needed)", async (t) => {
  const f = await parkFleet(t, 3, '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }');
  const first = await runActionInProcess(ROOT, {
    files: { 'fleet.yml': readFileSync(f.file, 'utf8') },
    inputs: { pipeline: 'fleet.yml', store: f.storeUrl },
    env: f.env,
    clock: f.clock,
  });
  assert.equal(first.outputs.outcome, 'parked');
  assert.ok(
    first.log.some((l) => /^parked: reports in /.test(l)),
    first.log.slice(-3).join('\n'),
  );
  assert.ok(!first.log.some((l) => /^success: /.test(l)), 'not success');
  const last = first.log.find((l) => /" parked: waiting for the 12h bake/.test(l));
  assert.ok(last, first.log.slice(-3).join('\n'));
  assert.doesNotMatch(last, /decide, then/);
  assert.match(last, /once it is over, run again with input continue/);
});
