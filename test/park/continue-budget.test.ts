// decide --continue goes on past the failures the operator saw, not past the wave's budget for
// the failures that come after: the values of the wave not started yet run under its budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

test('decide --continue past site-001, then site-002 and site-003 of the same wave fail in the continue: the wave is past its budget again, wave 2 is not sent', async (t) => {
  const f = await parkFleet(
    t,
    4,
    `  over: site
  waves: [[site-001, site-002, site-003], rest]
  max-failures: 0
  on-failure: decide`,
  );
  for (const site of ['site-001', 'site-002', 'site-003'])
    f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', site, status: 400 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.match(first.stdout, /^parked: waiting for a decision on wave 1: site-001 failed$/m);

  const decided = await f.decide(id, '--continue', '--reason', 'site-001 is known bad');
  assert.equal(decided.code, 0, decided.stdout + decided.stderr);
  const second = await f.run('--continue', id);
  assert.notEqual(second.code, 0, second.stdout + second.stderr);
  assert.deepEqual(f.applied('/update/system'), {}, `wave 2 (site-004) not sent\n${second.stdout}`);
  const wave1 = second.report!.rollout!.waves[0]!;
  assert.ok(['halted', 'parked'].includes(wave1.outcome), JSON.stringify(wave1));
  // site-003 did not start once site-002 had spent the budget again.
  assert.equal(
    second.report!.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-003')?.startedAt,
    null,
    second.stdout,
  );
});
