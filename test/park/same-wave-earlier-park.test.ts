// An operator's word about a value holds after a later park of the same wave: a value excluded at
// the first park (the wave then parked again, past its budget) is not sent by the continue that
// goes on past the wave.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ROLLOUT = `  over: site
  waves: [[site-001, site-002], rest]
  max-failures: 0
  on-failure: decide`;

test('decide --exclude site-001, the wave parks again past its budget, decide --continue: site-001 is not sent', async (t) => {
  const f = await parkFleet(t, 3, ROLLOUT);
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', site: 'site-001', status: 400, times: 1 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const excluded = await f.decide(id, '--exclude', 'site-001', '--reason', 'site-001 is being rebuilt');
  assert.equal(excluded.code, 0, excluded.stdout + excluded.stderr);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  const continued = await f.decide(id, '--continue', '--reason', 'go on without site-001');
  assert.equal(continued.code, 0, continued.stdout + continued.stderr);
  const third = await f.run('--continue', id);
  assert.equal(
    f.applied('/update/system')['site-001'],
    undefined,
    `site-001, excluded by the operator, was sent\n${second.stdout}\n${third.stdout}`,
  );
});
