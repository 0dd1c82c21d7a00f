// Fleets: a later step reads a matrix step's instances (which targets failed), and a gate names
// the Engines it expects, so one that never came back is missed by name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { oneStep, runYaml } from '../helpers/run.ts';

test('a later step reads a matrix step\'s instances: the failed targets, joined', async (t) => {
  const yaml = `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
  staging: { server: staging-db.example.com, database: STAGING, username: deploy, password: deploy-pass }
  wrong: { server: prod-db.example.com, database: PROD, token: not-the-token }
steps:
  - id: hotfix
    uses: update/vfs
    matrix: { target: [prod, wrong, staging] }
    max-parallel: 3
    continue-on-error: true
    with: { target: "\${{ matrix.target }}", files: [1001] }
  - id: tell
    uses: assert
    with:
      that: "steps.hotfix.failures == null"
      message: "\${{ format('the hotfix failed on {0} of {1}: {2}', join(steps.hotfix.failures.*.matrix.target, ', ') == '' && '0' || '1', join(steps.hotfix.instances.*.matrix.target, ', '), join(steps.hotfix.failures.*.matrix.target, ', ')) }}"
`;
  const { result } = await runYaml(t, yaml);
  const tell = result.steps.find((s) => s.id === 'tell')!;
  assert.equal(tell.outcome, 'failure');
  assert.equal(tell.error?.message, 'the hotfix failed on 1 of prod, wrong, staging: wrong');
});

test('steps.ID.instances is for matrix steps; validation says so', () => {
  assert.throws(
    () => loadPipeline({ file: 'p.yml', text: 'version: 1\nsteps:\n  - id: a\n    uses: assert\n    with: { that: true }\n  - uses: assert\n    with: { that: "${{ steps.a.instances }}" }\n', env: {} }),
    (e: { diagnostics: { message: string }[] }) => e.diagnostics.some((d) => /steps\.a\.instances: only a matrix step has instances/.test(d.message)),
  );
});

test('monitoring/engines with engines: every named Engine must be online; one that never came back is named', async (t) => {
  const ok = await runYaml(t, oneStep('monitoring/engines', '{ engines: [eng-prod-01, prod-app-02], version: "26.10.3" }'));
  assert.equal(ok.result.steps[0]!.outcome, 'success', ok.result.steps[0]!.error?.message);
  const missing = await runYaml(t, oneStep('monitoring/engines', '{ engines: [eng-prod-01, eng-prod-old], wait: { timeout: 4m } }'));
  const step = missing.result.steps[0]!;
  assert.equal(step.outcome, 'failure');
  assert.match(step.error!.message, /eng-prod-01, eng-prod-old online not met after \d+ checks over 4m: .*missing: eng-prod-old/);
  assert.deepEqual(step.outputs.missing, ['eng-prod-old']);
});
