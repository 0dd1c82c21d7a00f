// A continue is no way around a park, whatever it selects: a parked rollout goes on with the
// selection and the waves it parked with, since its park, its bakes and the operator's decisions
// are about the values of those waves. Before, `run --continue ID --only site=site-003 --force`
// an hour into a 12h bake formed its waves from the values selected (`wave 1/1: site-003`), the
// park's "wave 1, bake" matched nothing, and the rest of the fleet was sent with no decision.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const HOUR = 3_600_000;
const never = new AbortController().signal;

/** A 3-site fleet parked on the 12h bake after its canary. */
async function bakingCanary(t: Parameters<typeof parkFleet>[0]) {
  const f = await parkFleet(t, 3, '  over: site\n  waves: [[site-001], rest]\n  analysis: { bake: 12h }');
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  return { f, id: runIdOf(first.stdout)! };
}

for (const selection of [
  ['--only', 'site=site-003'],
  ['--skip', 'site=site-001'],
])
  test(`parked on the 12h bake after the canary, run --continue ${selection.join(' ')} --force an hour later: refused, nothing of wave 2 sent; the continue with the run's selection parks again`, async (t) => {
    const { f, id } = await bakingCanary(t);
    await f.clock.sleep(HOUR, never);
    const r = await f.run('--continue', id, ...selection, '--force');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /a parked rollout goes on with the selection it parked with/);
    assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'nothing of wave 2 before the bake ends');
    const again = await f.run('--continue', id);
    assert.equal(again.code, PARKED, again.stdout + again.stderr);
    assert.match(again.stdout, /^parked: waiting for the 12h bake after wave 1$/m);
    // Past the bake, a selection of its own is still refused: the waves are the run's, not the selection's.
    await f.clock.sleep(12 * HOUR, never);
    const later = await f.run('--continue', id, ...selection, '--force');
    assert.equal(later.code, 2, later.stdout + later.stderr);
    const done = await f.run('--continue', id);
    assert.equal(done.code, 0, done.stdout + done.stderr);
    assert.deepEqual(f.applied('/update/system'), { 'site-001': 1, 'site-002': 1, 'site-003': 1 });
  });

test('parked on the 12h bake after the canary, the waves edited (site-002 moved into wave 1) and run --continue --force an hour later: refused, site-002 not sent', async (t) => {
  const { f, id } = await bakingCanary(t);
  await f.clock.sleep(HOUR, never);
  writeFileSync(
    f.file,
    readFileSync(f.file, 'utf8').replace('waves: [[site-001], rest]', 'waves: [[site-001, site-002], rest]'),
  );
  const r = await f.run('--continue', id, '--force');
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /a parked rollout goes on with the waves it parked with/);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'site-002 not sent into a bake');
});

test('parked on a decision (site-002 failed, budget 0), run --continue --skip site=site-002 --force: parked again, nothing sent', async (t) => {
  const f = await parkFleet(
    t,
    4,
    '  over: site\n  waves: [[site-001], [site-002, site-003], rest]\n  on-failure: decide',
  );
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', site: 'site-002', status: 400, times: 1 });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const r = await f.run('--continue', id, '--skip', 'site=site-002', '--force');
  assert.notEqual(r.code, 0, r.stdout + r.stderr);
  assert.notEqual(r.code, 1, r.stdout + r.stderr);
  assert.deepEqual(f.applied('/update/system'), { 'site-001': 1 }, 'no decision was made: nothing sent');
});
