// An operator's decision about a wave holds for the rest of the run, not only until the next park:
// a value left out of wave 1 (--exclude, --skip, a wave's --continue) is not sent by the continue
// that goes on after a later park (the bake after wave 2).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ROLLOUT = `  over: site
  waves: [[site-001, site-002], [site-003], rest]
  max-parallel: 2
  max-failures: 1
  on-failure: decide
  analysis: { bake: [1m, 12h] }`;

for (const decision of [['--exclude', 'site-001'], ['--skip', 'site-001'], ['--continue']]) {
  test(`decide ${decision.join(' ')} at wave 1, then a park for the bake after wave 2: the continue after it does not send site-001`, async (t) => {
    const f = await parkFleet(t, 4, ROLLOUT);
    // The server refuses site-001's update once (nothing applied): a failure the operator decides about.
    f.sites.faults.add({
      method: 'POST',
      path: '/api/devops/v1/update/system',
      site: 'site-001',
      status: 400,
      times: 1,
    });
    const first = await f.run();
    assert.equal(first.code, PARKED, first.stdout + first.stderr);
    const id = runIdOf(first.stdout)!;
    assert.match(first.stdout, /^parked: waiting for a decision on wave 1: site-001 failed$/m);

    const decided = await f.decide(id, ...decision, '--reason', 'site-001 is being rebuilt');
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    const second = await f.run('--continue', id);
    assert.equal(second.code, PARKED, second.stdout + second.stderr);
    assert.match(second.stdout, /^parked: waiting for the 12h bake after wave 2$/m);
    assert.deepEqual(f.applied('/update/system'), { 'site-002': 1, 'site-003': 1 });

    await f.clock.sleep(13 * 3_600_000, new AbortController().signal);
    const third = await f.run('--continue', id);
    assert.notEqual(third.code, PARKED, third.stdout + third.stderr);
    assert.doesNotMatch(third.stdout, /▶ \[1\/2\] Update site-001/, 'site-001 not started again');
    assert.deepEqual(
      f.applied('/update/system'),
      { 'site-002': 1, 'site-003': 1, 'site-004': 1 },
      `the operator went on without site-001: it is not sent\n${third.stdout}`,
    );
    const site1 = third.report!.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-001')!;
    assert.notEqual(site1.outcome, 'success', JSON.stringify(site1));
  });
}
