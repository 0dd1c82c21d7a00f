// The instances of a pipeline and a selection are computed once (runner/instance-set.ts): the run,
// its plan and a resume read one set, and their keys agree.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { instanceSet } from '../../src/runner/instance-set.ts';
import { planPipeline } from '../../src/runner/plan.ts';

const YAML = `version: 1
name: Fleet
steps:
  - id: engines
    uses: monitoring/engines
    matrix: { site: [a, b, c], tier: [1, 2] }
    with: { min-online: 1 }
  - uses: transaction-log/clear
`;

test('the instance set: computed once per pipeline and selection, in the order the run lists instances', async () => {
  const env = { ENGINE_URL: 'http://127.0.0.1:1', ENGINE_USERNAME: 'u', ENGINE_PASSWORD: 'p' };
  const { pipeline } = loadPipeline({ file: 'fleet.yml', text: YAML, env });
  const selection = { only: { site: ['c', 'a'] }, skip: { tier: ['2'] } };
  const set = instanceSet(pipeline, selection);
  // The same selection, said in another order: the same set, not computed again.
  assert.equal(instanceSet(pipeline, { only: { site: ['a', 'c'] }, skip: { tier: ['2'] } }), set);
  assert.notEqual(instanceSet(pipeline, { only: {}, skip: {} }), set);
  assert.deepEqual(
    set.steps.map((list) => list.map((i) => i.key)),
    [['id:engines {"site":"a","tier":1}', 'id:engines {"site":"c","tier":1}'], [[...set.keys.keys()][2]]],
  );
  assert.deepEqual(
    [...set.keys.values()].map((v) => v.step),
    [0, 0, 1],
  );
  // The plan knows each instance by the set's key.
  const plan = await planPipeline(pipeline, env, { selection });
  assert.deepEqual(
    plan.steps.map((s) => s.key),
    [...set.keys.keys()],
  );
});
