// decide --skip of a value whose write the server refused (400: known not applied): the value is
// not sent again, and it still failed. Its row keeps the refusal (error, attempts) and the
// operator's word (who, why) in every report; it never counts as rolled out for the wave's
// analysis (a wave whose only value was skipped after failing has nothing to analyse and does not
// pass), and the run fails as for a value failed within a budget (exit 1). Before, the row read
// `skipped` with no error, no decision and 0 attempts, the wave "done" with its analysis "held"
// on a site never updated, wave 2 updated the rest of the fleet and the run exited 0.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Report } from '../../src/report/model.ts';
import { PARKED, parkedOnRefusal } from './helpers.ts';

const ROLLOUT = (canary: string) =>
  `  over: site\n  waves: [${canary}, rest]\n  max-failures: 0\n  on-failure: decide\n  analysis: { gates: [alerts], count: 1 }`;

/** The skipped value's update as a report shows it: skipped, its refusal and the operator's word kept. */
function assertKept(report: Report, site: string, how: string) {
  const row = report.steps.find((s) => s.id === 'update' && s.matrix?.site === site)!;
  assert.equal(row.outcome, 'skipped', `${how}: ${JSON.stringify(row)}`);
  assert.match(row.error?.message ?? '', /HTTP 400/, `${how}: its refusal kept: ${JSON.stringify(row)}`);
  assert.ok(row.attempts >= 1, `${how}: its attempt kept: ${JSON.stringify(row)}`);
  assert.equal(row.decision?.decision, 'skip', `${how}: the operator's word: ${JSON.stringify(row)}`);
  assert.match(row.decision?.by ?? '', /@/, how);
  const decision = row.decision as Record<string, unknown> | null;
  assert.equal(decision?.reason, 'site-001 is being rebuilt', how);
  assert.equal(decision?.leftFailed, true, how);
}

test('decide --skip of the canary whose update was refused (400): it keeps its failure and the decision, the wave has nothing to analyse and parks again, nothing of wave 2 is sent', async (t) => {
  const { f, id } = await parkedOnRefusal(t, ROLLOUT('[site-001]'), 'site-001', 1);
  const d = await f.decide(id, '--skip', 'site-001', '--reason', 'site-001 is being rebuilt');
  assert.equal(d.code, 0, d.stdout + d.stderr);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  const wave1 = second.report!.rollout!.waves[0]!;
  assert.deepEqual(wave1.failed, ['site-001']);
  assert.notEqual(wave1.analysis?.passed, true, JSON.stringify(wave1));
  assert.match(second.report!.parked!.reason, /the analysis after it failed: .*nothing to analyse/);
  assert.deepEqual(f.applied('/update/system'), {}, 'nothing of wave 2 sent on an analysis of nothing');
  assertKept(second.report!, 'site-001', 'the continue');
  const json = join(f.dir, 'stored.json');
  const stored = await f.cli(['report', '--store', f.storeUrl, '--run', id, '--report-json', json]);
  // The store's report: the refusal as the journal holds it, the operator's word among its decisions.
  const fromStore = JSON.parse(readFileSync(json, 'utf8')) as Report;
  const row = fromStore.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-001')!;
  assert.match(row.error?.message ?? '', /HTTP 400/, JSON.stringify(row));
  assert.ok(fromStore.decisions.some((x) => x.decision === 'skip' && x.value === 'site-001' && x.reason));
  assert.deepEqual(fromStore.rollout!.waves[0]!.failed, ['site-001']);
  assert.notEqual(stored.code, 0);

  // The operator goes on past the wave: the rest is sent, and the run fails (site-001 failed).
  assert.equal((await f.decide(id, '--continue', '--reason', 'go on without site-001')).code, 0);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 1, done.stdout + done.stderr);
  assert.equal(done.report!.outcome, 'failure');
  assert.deepEqual(f.applied('/update/system'), { 'site-002': 1, 'site-003': 1 });
  assertKept(done.report!, 'site-001', 'the last continue');
});

test('decide --skip of one of two canaries refused (400, budget 0): not counted against the budget, the analysis reads the other only, the run goes on and fails (exit 1)', async (t) => {
  const { f, id } = await parkedOnRefusal(t, ROLLOUT('[site-001, site-002]'), 'site-001', 1, 4);
  assert.equal((await f.decide(id, '--skip', 'site-001', '--reason', 'site-001 is being rebuilt')).code, 0);
  const done = await f.run('--continue', id);
  assert.equal(done.code, 1, done.stdout + done.stderr);
  const wave1 = done.report!.rollout!.waves[0]!;
  assert.equal(wave1.outcome, 'failed-within-budget');
  assert.deepEqual(wave1.failed, ['site-001']);
  assert.equal(wave1.analysis?.passed, true, JSON.stringify(wave1));
  assert.deepEqual(
    done.report!.steps.filter((s) => s.round !== null).map((s) => s.matrix?.site),
    ['site-002'],
    'the analysis read the site that was updated, not the one skipped',
  );
  assert.deepEqual(f.applied('/update/system'), { 'site-002': 1, 'site-003': 1, 'site-004': 1 });
  assertKept(done.report!, 'site-001', 'the continue');
});
