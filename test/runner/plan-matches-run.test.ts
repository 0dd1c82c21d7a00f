// The dry run shows exactly the calls a run sends: for every step type (and each way its inputs
// change the call), the plan's calls equal the requests the emulator received when the same
// step ran, method, path, query and body. Both come from the API area's call builders; this
// test fails when a step's plan and its run part ways, or when a step type has no case here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { planPipeline } from '../../src/runner/plan.ts';
import { STEP_TYPES } from '../../src/steps/registry.ts';
import { oneStep, runYaml } from '../helpers/run.ts';

/** Each step type's inputs, as `with:` flows; several where the inputs choose another call. */
const CASES: Record<string, string[]> = {
  'api/request': [
    '{ path: /api/monitoring/v1/engines }',
    '{ method: POST, path: /api/devops/v1/replication/configs/1/sync }',
  ],
  assert: ['{ that: true }'],
  'classes/get': ['{ id: 3001 }', '{ id: 3001, class: 21 }'],
  'classes/query': ['{ class: 22 }', '{ class: 22, where: { entidade: 3001 } }'],
  'classes/create': ['{ class: 30, fields: { iname: REL-1, ioutcome: started } }'],
  'classes/update': ['{ id: 3001, class: 21, fields: { icustomer: Initech } }', '{ id: 3002, fields: { itotal: 90 } }'],
  'classes/delete': ['{ id: 4003 }', '{ id: 4002, class: 22 }'],
  'licensing/check': ['{ product: 1 }'],
  'licensing/create': [
    '{ licensee-id: ACME-001, licensee-name: ACME Corp, expiration: "2027-12-31", licenser-key: 7001, licenses: [{ product: 2, quantity: 25, type: U }] }',
  ],
  'licensing/add': ['{ code: "${{ steps.pre.outputs.code }}" }'],
  'licensing/remove': ['{ key: 2 }'],
  'monitoring/alerts': ['{}', '{ engine: eng-prod-01 }'],
  'monitoring/engines': ['{}', '{ engine: eng-main-01 }'],
  'monitoring/sessions': ['{}', '{ engine: eng-prod-01 }'],
  'replication/sync': ['{}', '{ config: 1 }'],
  'replication/check': ['{ configs: [1] }'],
  'transaction-log/clear': ['{}'],
  'update/system': ['{ target: staging, message: release 26.11 }'],
  'update/vfs': ['{ target: prod, files: [1001], message: release 26.11, tracking-id: REL-1 }'],
};

/** Steps a case needs before it (a license code to add). */
const BEFORE: Record<string, string> = {
  'licensing/add': `  - id: pre
    uses: licensing/create
    with: ${CASES['licensing/create']![0]}
`,
};

interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

test('every step type has a case: a new one cannot skip the comparison', () => {
  assert.deepEqual([...STEP_TYPES.keys()].sort(), Object.keys(CASES).sort());
});

for (const [uses, inputs] of Object.entries(CASES)) {
  test(`${uses}: the plan shows exactly the calls the run sends`, async (t) => {
    for (const withBlock of inputs) {
      const extra = BEFORE[uses] ?? '';
      const yaml = oneStep(uses, withBlock).replace('steps:\n', `steps:\n${extra}`);
      const sent: Call[] = [];
      let recording = extra === '';
      const { result, emulator } = await runYaml(t, yaml, {
        setup: (emu) => {
          const handle = emu.handle.bind(emu);
          emu.handle = (req) => {
            if (recording)
              sent.push({
                method: req.method,
                path: req.path,
                query: Object.fromEntries(req.query),
                body: bodyOf(req.body, req.headers['content-type']),
              });
            const answer = handle(req);
            if (req.path.endsWith('/licenses/create')) recording = true;
            return answer;
          };
        },
      });
      assert.equal(
        result.steps.at(-1)!.outcome,
        'success',
        `${uses} ${withBlock}: ${JSON.stringify(result.steps.at(-1)!.error)}`,
      );

      const env = { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
      const { pipeline } = loadPipeline({ file: 'test.yml', text: yaml, env });
      const planned = (await planPipeline(pipeline, env)).steps.at(-1)!.calls;
      const shown = planned.map((c) => ({
        method: c.method,
        path: c.path,
        query: Object.fromEntries(Object.entries(c.query ?? {}).map(([k, v]) => [k, String(v)])),
        body: c.body ?? null,
      }));
      // A plan masks what it shows; the run's license code is the one input known only then.
      const comparable = (calls: Call[]) =>
        JSON.stringify(calls, (k, v) =>
          k === 'body' && uses === 'licensing/add'
            ? '<code>'
            : k === 'targetAuthToken' || k === 'targetPassword'
              ? '<credential>'
              : v,
        );
      assert.equal(comparable(shown), comparable(sent), `${uses} ${withBlock}`);
      assert.ok(emulator);
    }
  });
}

function bodyOf(text: string, type: string | undefined): unknown {
  if (text === '') return null;
  return type?.startsWith('application/json') ? JSON.parse(text) : text;
}
