// Fleets: a later step reads a matrix step's instances (which targets failed), and a gate names
// the Engines it expects, so one that never came back is missed by name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { oneStep, runYaml } from '../helpers/run.ts';

test("a later step reads a matrix step's instances: the failed targets, joined", async (t) => {
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
    () =>
      loadPipeline({
        file: 'p.yml',
        text: 'version: 1\nsteps:\n  - id: a\n    uses: assert\n    with: { that: true }\n  - uses: assert\n    with: { that: "${{ steps.a.instances }}" }\n',
        env: {},
      }),
    (e: { diagnostics: { message: string }[] }) =>
      e.diagnostics.some((d) => /steps\.a\.instances: only a matrix step has instances/.test(d.message)),
  );
});

test('monitoring/engines with engines: every named Engine must be online; one that never came back is named', async (t) => {
  const ok = await runYaml(
    t,
    oneStep('monitoring/engines', '{ engines: [eng-prod-01, prod-app-02], version: "26.10.3" }'),
  );
  assert.equal(ok.result.steps[0]!.outcome, 'success', ok.result.steps[0]!.error?.message);
  const missing = await runYaml(
    t,
    oneStep('monitoring/engines', '{ engines: [eng-prod-01, eng-prod-old], wait: { timeout: 4m } }'),
  );
  const step = missing.result.steps[0]!;
  assert.equal(step.outcome, 'failure');
  assert.match(
    step.error!.message,
    /eng-prod-01, eng-prod-old online not met after \d+ checks over 4m: .*missing: eng-prod-old/,
  );
  assert.deepEqual(step.outputs.missing, ['eng-prod-old']);
});

const SITES = `version: 1
servers:
  test: { url: "\${{ env.ENGINE_URL }}", username: admin, password: admin }
  staging: { url: "\${{ env.ENGINE_URL }}", username: admin, password: admin }
  prod: { url: "\${{ env.ENGINE_URL }}", username: admin, password: admin }
steps:
  - id: clear
    uses: transaction-log/clear
    matrix: { site: [test, staging, prod] }
    server: "\${{ matrix.site }}"
`;

test('a matrix over servers: one step at every site, each instance on its own server', async (t) => {
  const { result, emulator } = await runYaml(t, SITES);
  assert.deepEqual(
    result.steps.map((s) => [s.server, s.outcome]),
    [
      ['test', 'success'],
      ['staging', 'success'],
      ['prod', 'success'],
    ],
  );
  assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 3);
});

test('a matrix value that names no server is refused at its line', () => {
  assert.throws(
    () =>
      loadPipeline({
        file: 'p.yml',
        text: SITES.replace('[test, staging, prod]', '[test, stagin, prod]'),
        env: { ENGINE_URL: 'https://erp.example.com' },
      }),
    (e: { diagnostics: { line: number; col: number; message: string; hint?: string }[] }) =>
      e.diagnostics.some(
        (d) =>
          d.line === 9 &&
          /matrix value "stagin" names no server/.test(d.message) &&
          d.hint === 'did you mean "staging"?',
      ),
  );
});
