// An analysis that failed, and the operator's decision to go on past it: the decision is recorded
// with what it was made on (the failed analysis), and no report of the run that goes on says the
// analysis held.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ALERTS = '/api/monitoring/v1/alerts';

test('decide --continue past a failed analysis: the decision keeps the failure as its evidence, and the reports of the continue never say the analysis held', async (t) => {
  const f = await parkFleet(
    t,
    3,
    `  over: site
  waves: [[site-001], rest]
  on-failure: decide
  analysis: { gates: [alerts], count: 2, interval: 2m }`,
  );
  // The canary's own gate reads its alerts once; the analysis after the wave reads a 500.
  f.sites.faults.add({ method: 'GET', path: `${ALERTS}*`, site: 'site-001', latencyMs: 1, times: 1 });
  f.sites.faults.add({ method: 'GET', path: `${ALERTS}*`, site: 'site-001', status: 500 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.match(first.stdout, /^parked: waiting for a decision on wave 1: the analysis after it failed: /m);

  const decided = await f.decide(id, '--continue', '--reason', 'the monitoring proxy was down');
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  f.sites.faults.clear();
  const summary = join(f.dir, 'summary.md');
  const done = await f.run('--continue', id, '--summary', summary);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const [decision] = done.report!.decisions;
  assert.ok(
    decision!.evidence.some((e) => /the analysis after it failed: round 1\/2: .*HTTP 500/.test(e)),
    `the decision's evidence: ${JSON.stringify(decision!.evidence)}`,
  );
  const wave1 = done.report!.rollout!.waves[0]!;
  assert.notEqual(wave1.analysis?.passed, true, JSON.stringify(wave1));
  assert.doesNotMatch(readFileSync(summary, 'utf8'), /^\| 1 \| site-001 \|.*\| held/m);
});
