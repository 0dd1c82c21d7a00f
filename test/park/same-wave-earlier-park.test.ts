// An operator's word about a value holds after a later park of the same wave: a value excluded at
// the first park (the wave then parked again, past its budget) is not sent by the continue that
// goes on past the wave.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { runCli } from '../helpers/cli.ts';
import { PARKED, parkFleet, runIdOf } from './helpers.ts';

const ROLLOUT = `  over: site
  waves: [[site-001, site-002], rest]
  max-failures: 0
  on-failure: decide`;

/** The rollout's first run, site-001's update refused (400: known not applied) `times` times: parked for a decision on it. */
async function refusedAtCanary(t: TestContext, times: number, rollout = ROLLOUT) {
  const f = await parkFleet(t, 3, rollout);
  f.sites.faults.add({ method: 'POST', path: '/api/devops/v1/update/system', site: 'site-001', status: 400, times });
  const first = await f.run();
  assert.equal(first.code, PARKED, first.stdout + first.stderr);
  return { f, first, id: runIdOf(first.stdout)! };
}

test('decide --exclude site-001, the wave parks again past its budget, decide --continue: site-001 is not sent', async (t) => {
  const { f, id } = await refusedAtCanary(t, 1);
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

test('decide --retry site-001, it fails again and the wave parks again past its budget, decide --continue: site-001 is not sent a third time', async (t) => {
  const { f, id } = await refusedAtCanary(t, 2);
  const sends: string[] = [];
  const retried = await f.decide(id, '--retry', 'site-001', '--reason', 'a transient refusal');
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  sends.push(second.stdout);
  const continued = await f.decide(id, '--continue', '--reason', 'go on without site-001');
  assert.equal(continued.code, 0, continued.stdout + continued.stderr);
  const third = await f.run('--continue', id);
  assert.doesNotMatch(
    third.stdout,
    /▶ \[1\/2\] Update site-001/,
    `the operator went on past site-001's second failure: it is not sent a third time\n${second.stdout}\n${third.stdout}`,
  );
  assert.equal(f.applied('/update/system')['site-001'], undefined);
});

test('a write refused (400: known not applied) parks for a decision: decide --retry site-001 sends it again, once; decide --continue leaves it as it failed', async (t) => {
  for (const retried of [true, false]) {
    const { f, id } = await refusedAtCanary(t, 1, ROLLOUT.replace('max-failures: 0', 'max-failures: 1'));
    const word = retried ? ['--retry', 'site-001'] : ['--continue'];
    const decided = await f.decide(id, ...word, '--reason', 'a transient refusal');
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    const done = await f.run('--continue', id);
    const update = done.report!.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-001')!;
    if (retried) {
      assert.equal(done.code, 0, done.stdout + done.stderr);
      assert.equal(update.outcome, 'success');
      assert.equal(f.applied('/update/system')['site-001'], 1, 'sent again on the word to retry it');
    } else {
      assert.equal(done.code, 1, done.stdout + done.stderr);
      assert.equal(update.outcome, 'skipped');
      assert.match(update.figures ?? '', /not sent again: left as it failed by the operator/);
      assert.equal(f.applied('/update/system')['site-001'], undefined, 'not sent again without it');
    }
  }
});

test('decide --retry site-001, it fails again within the budget and the run parks for the bake: the continue after the bake does not send it a third time', async (t) => {
  const { f, id } = await refusedAtCanary(
    t,
    2,
    `${ROLLOUT.replace('max-failures: 0', 'max-failures: 1')}\n  analysis: { bake: 12h }`,
  );
  const sent = () =>
    f.sites
      .started()
      .get('site-001')
      ?.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/system')).length ?? 0;
  const retried = await f.decide(id, '--retry', 'site-001', '--reason', 'a transient refusal');
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, second.stdout + second.stderr);
  assert.equal(second.report!.parked?.for, 'bake');
  assert.equal(sent(), 2, 'sent again once, on the word to retry it');
  await f.clock.sleep(13 * 3_600_000, new AbortController().signal);
  const third = await f.run('--continue', id);
  assert.equal(third.code, 1, third.stdout + third.stderr);
  assert.equal(sent(), 2, 'the retry was acted on: its second failure stands');
  assert.deepEqual(
    third.report!.rollout!.waves.map((w) => [w.outcome, w.failed]),
    [
      ['failed-within-budget', ['site-001']],
      ['done', []],
    ],
  );
});

for (const word of ['--skip', '--exclude'] as const)
  test(`decide ${word} site-001 of a write refused (400): the continue leaves it on the operator's word, never sent again`, async (t) => {
    const { f, id } = await refusedAtCanary(t, 1);
    const decided = await f.decide(id, word, 'site-001', '--reason', 'site-001 is being rebuilt');
    assert.equal(decided.code, 0, decided.stdout + decided.stderr);
    const done = await f.run('--continue', id);
    const update = done.report!.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-001')!;
    assert.equal(update.outcome, 'skipped');
    assert.match(update.figures ?? '', word === '--skip' ? /skipped by the operator/ : /excluded from the wave/);
    // A skip does not count against the wave's budget; an exclude does (a budget of 0: it parks for a decision again).
    // Skipped, site-001 still failed: the run goes on and fails, as for a value failed within a budget.
    assert.equal(done.code, word === '--skip' ? 1 : PARKED, done.stdout + done.stderr);
    assert.deepEqual(done.report!.rollout!.waves[0]!.failed, ['site-001']);
    assert.match(update.error?.message ?? '', /HTTP 400/, 'its refusal kept');
    assert.equal(f.applied('/update/system')['site-001'], undefined);
  });

test("decide --retry site-001 twice, the second on a clock five minutes behind the runner's: the continue sends it again, as the operator said", async (t) => {
  const { f, id } = await refusedAtCanary(t, 2);
  assert.equal((await f.decide(id, '--retry', 'site-001', '--reason', 'a transient refusal')).code, 0);
  const second = await f.run('--continue', id);
  assert.equal(second.code, PARKED, 'failed again: a word asked again');
  // The operator's machine runs five minutes behind the runner's: its decision is stamped before the second run started.
  const behind = simulatedClock(f.clock.now() - 5 * 60_000);
  const retried = await runCli(
    ['decide', '--store', f.storeUrl, '--run', id, '--retry', 'site-001', '--reason', 'checked again'],
    { env: { PROD_TOKEN: 'prod-token' }, clock: behind },
  );
  assert.equal(retried.code, 0, retried.stdout + retried.stderr);
  const third = await f.run('--continue', id);
  assert.equal(third.code, 0, third.stdout + third.stderr);
  assert.equal(f.applied('/update/system')['site-001'], 1, 'sent a third time, on the second word to retry it');
});
