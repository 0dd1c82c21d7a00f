// One rule decides a run's outcome from its instances (runner/result.ts runOutcome): the run, a
// journal's release and a merged report's jobs agree on it, whichever form the instances are in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newInstance, type StepRun } from '../../src/runner/instance.ts';
import { runOutcome, type RolloutResult } from '../../src/runner/result.ts';
import { checkedOutcome } from '../../src/report/outcome.ts';
import { reportStep } from '../../src/report/model.ts';

const at = (n: number, rest: Partial<StepRun>) =>
  newInstance({ key: `#k ${n}`, step: 0, name: `s${n}`, uses: 'gate' }, rest);
const ok = (n: number) => at(n, { outcome: 'success' });

const cases: [string, StepRun[], ReturnType<typeof runOutcome>][] = [
  ['every instance succeeded', [ok(1), ok(2)], 'success'],
  ['a failure continue-on-error let pass', [ok(1), at(2, { outcome: 'failure', continuedOnError: true })], 'success'],
  [
    'fail-fast: the failure decides, not the siblings it did not start',
    [at(1, { outcome: 'failure' }), at(2, { error: { code: 'FAIL_FAST', message: 'not started' } })],
    'failure',
  ],
  [
    'interrupted: cancelled, also beside a failure',
    [at(1, { outcome: 'failure' }), at(2, { error: { code: 'CANCELLED', message: 'cancelled' } })],
    'cancelled',
  ],
  [
    'an instance a killed run never ended',
    [ok(1), at(2, { error: { code: 'NOT_STARTED', message: 'x' } })],
    'cancelled',
  ],
  ['an analysis round is its wave’s to weigh', [ok(1), at(2, { outcome: 'failure', wave: 1, round: 1 })], 'success'],
];

for (const [what, steps, outcome] of cases) {
  test(`run outcome: ${what}`, () => {
    assert.equal(runOutcome(steps), outcome);
    // A report that claims success says the same from its steps.
    assert.equal(checkedOutcome({ outcome: 'success', steps: steps.map(reportStep), rollout: null }), outcome);
  });
}

test('run outcome: a rollout that halted, or had a value fail within its budget, fails the run', () => {
  const waves: RolloutResult['waves'] = [{ wave: 1, values: ['a'], outcome: 'done', failed: [], budget: 0 }];
  const rollout = (r: RolloutResult) => r;
  assert.equal(runOutcome([ok(1)], rollout({ over: 'site', waves })), 'success');
  assert.equal(runOutcome([ok(1)], rollout({ over: 'site', waves, halted: { wave: 1, reason: 'r' } })), 'failure');
  assert.equal(
    runOutcome([ok(1)], rollout({ over: 'site', waves: [{ ...waves[0]!, failed: ['a'], budget: 1 }] })),
    'failure',
  );
  const halted = at(2, { error: { code: 'ROLLOUT_HALTED', message: 'not started' } });
  assert.equal(
    runOutcome([ok(1), halted], rollout({ over: 'site', waves, halted: { wave: 1, reason: 'r' } })),
    'failure',
  );
});
