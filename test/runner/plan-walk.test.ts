// The plan runs each step's own run() against a recording client (api/recording.ts,
// runner/plan-env.ts), so what it shows is what the step calls, by construction. What is left to
// pin: the recording client answers every call of the API with a placeholder its client accepts
// (a step goes on to its next call), records it as the plan shows it, and sends nothing; and the
// plan lists each step type's calls, a gate's first check only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineClient, PLACEHOLDER_LICENSE_CODE, type PlannedCall } from '../../src/api/index.ts';
import { loadPipeline } from '../../src/pipeline/load.ts';
import { planPipeline } from '../../src/runner/plan.ts';
import { readNow } from '../../src/runner/live-read.ts';
import { Masker } from '../../src/runner/masker.ts';
import { recordCalls } from '../../src/runner/plan-env.ts';
import { STEP_TYPES } from '../../src/steps/registry.ts';
import type { StepEnv, StepType } from '../../src/steps/types.ts';
import { oneStep } from '../helpers/run.ts';

test('the recording client answers every method of the API with a placeholder of its response type, and sends nothing', async () => {
  const calls: PlannedCall[] = [];
  // Nothing listens on port 9: a call that left would fail with API_CONNECTION_REFUSED.
  const client = new EngineClient({ url: 'http://127.0.0.1:9', username: 'u', password: 'p' }, { recordInto: calls });
  const update = { targetDBName: 'PROD', targetServer: 'prod-db', targetAuthToken: 't' };
  const { classes, licensing, monitoring, devops } = client;
  const answers: Record<string, Record<string, unknown>> = {
    classes: {
      schema: await classes.schema(21),
      children: await classes.children(21),
      descendants: await classes.descendants(21),
      list: await classes.list(22, { entidade: 3001 }),
      get: await classes.get(3001, 21),
      create: await classes.create(30, { iname: 'REL-1' }),
      update: await classes.update(3001, { icustomer: 'Initech' }),
      delete: await classes.delete(4003),
    },
    licensing: {
      licenses: await licensing.licenses(),
      license: await licensing.license(2),
      remove: await licensing.remove(2),
      add: await licensing.add('CODE'),
      create: await licensing.create({
        licenseeId: 'A',
        licenseeName: 'ACME',
        expiration: '2027-12-31',
        licenses: [{ productKey: 2, quantity: 25, type: 'U' }],
      }),
      products: await licensing.products(),
      product: await licensing.product(1),
      productExtensions: await licensing.productExtensions(1),
      extensions: await licensing.extensions(),
      extension: await licensing.extension(1),
    },
    monitoring: {
      engines: await monitoring.engines(),
      engineVersions: await monitoring.engineVersions(),
      engineVersionsDated: await monitoring.engineVersionsDated(),
      engine: await monitoring.engine('eng-1'),
      engineDated: await monitoring.engineDated('eng-1'),
      engineSessions: await monitoring.engineSessions('eng-1'),
      engineSession: await monitoring.engineSession('eng-1', 's-1'),
      engineAlerts: await monitoring.engineAlerts('eng-1'),
      sessions: await monitoring.sessions(),
      session: await monitoring.session('s-1'),
      alerts: await monitoring.alerts(),
    },
    devops: {
      clearTransactionLog: await devops.clearTransactionLog(),
      replicationConfigs: await devops.replicationConfigs(),
      replicationConfig: await devops.replicationConfig(1),
      sync: [await devops.sync(), await devops.sync(1)],
      updateSystem: await devops.updateSystem(update),
      updateVfs: await devops.updateVfs({ ...update, files: [1001] }),
    },
  };
  // Every method of every area has its case: a new one cannot go without a placeholder.
  for (const [area, api] of Object.entries({ classes, licensing, monitoring, devops }))
    assert.deepEqual(
      Object.getOwnPropertyNames(Object.getPrototypeOf(api))
        .filter((m) => m !== 'constructor')
        .sort(),
      Object.keys(answers[area]!).sort(),
      area,
    );
  // What a step reads on: empty lists, success, a code to add.
  assert.deepEqual(answers.monitoring!.engines, []);
  assert.deepEqual(answers.monitoring!.engineVersions, []);
  assert.deepEqual((answers.monitoring!.engineVersionsDated as { engines: unknown[] }).engines, []);
  assert.equal((answers.monitoring!.engineDated as { engine: { instanceId: string } }).engine.instanceId, '');
  assert.deepEqual(answers.devops!.sync, [
    { status: 200, results: [], succeeded: 0, failed: 0 },
    { status: 200, results: [], succeeded: 0, failed: 0 },
  ]);
  assert.equal((answers.devops!.updateSystem as { success: boolean }).success, true);
  assert.equal(answers.licensing!.create, PLACEHOLDER_LICENSE_CODE);
  assert.deepEqual(answers.licensing!.remove, { status: 200 });
  assert.equal(answers.classes!.delete, null);
  const raw = await client.request({ method: 'POST', path: '/api/anything', body: { json: { a: 1 } } });
  assert.equal(raw.status, 200);
  assert.equal(raw.attempts, 0);
  // Each call recorded as the plan shows it: method, path, query, body (text with its type).
  assert.equal(calls.length, 37);
  assert.deepEqual(calls[3], { method: 'GET', path: '/api/classes/v1/classes/22/entities', query: { entidade: 3001 } });
  assert.deepEqual(calls[5], {
    method: 'POST',
    path: '/api/classes/v1/classes/30/entities',
    body: [{ iname: 'REL-1' }],
  });
  assert.deepEqual(calls[11], {
    method: 'POST',
    path: '/api/licensing/v1/licenses',
    body: 'CODE',
    contentType: 'text/plain',
  });
  assert.deepEqual(calls.at(-1), { method: 'POST', path: '/api/anything', body: { a: 1 } });
  await client.close();
});

/** Each step type's inputs, as `with:` flows, and the calls its plan lists ("METHOD path"). */
const CASES: Record<string, [string, string[]][]> = {
  'api/request': [
    ['{ path: /api/monitoring/v1/engines }', ['GET /api/monitoring/v1/engines']],
    ['{ method: DELETE, path: /api/x, query: { a: 1 } }', ['DELETE /api/x?a=1']],
  ],
  assert: [['{ that: true }', []]],
  'classes/get': [['{ id: 3001, class: 21 }', ['GET /api/classes/v1/classes/21/entities/3001']]],
  'classes/query': [
    ['{ class: 22, where: { entidade: 3001 } }', ['GET /api/classes/v1/classes/22/entities?entidade=3001']],
  ],
  'classes/create': [
    ['{ class: 30, fields: { iname: REL-1 } }', ['POST /api/classes/v1/classes/30/entities [{"iname":"REL-1"}]']],
  ],
  'classes/update': [['{ id: 3002, fields: { itotal: 90 } }', ['PATCH /api/classes/v1/entities/3002 [{"itotal":90}]']]],
  'classes/delete': [['{ id: 4003 }', ['DELETE /api/classes/v1/entities/4003']]],
  'licensing/check': [
    ['{ product: 1, min-days-left: 30 }', ['GET /api/licensing/v1/licenses', 'GET /api/licensing/v1/products']],
  ],
  'licensing/create': [
    [
      '{ licensee-id: A, licensee-name: ACME, expiration: "2027-12-31", licenses: [{ product: 2, quantity: 25, type: U }] }',
      [
        'POST /api/licensing/v1/licenses/create {"licenseeId":"A","licenseeName":"ACME","expiration":"2027-12-31","licenses":[{"productKey":2,"quantity":25,"type":"U"}]}',
      ],
    ],
  ],
  // An earlier step's output is shown as the placeholder it is, masked: the input holds a secret.
  'licensing/add': [['{ code: "${{ steps.pre.outputs.code }}" }', ['POST /api/licensing/v1/licenses "***"']]],
  'licensing/remove': [['{ key: 2 }', ['DELETE /api/licensing/v1/licenses/2']]],
  'monitoring/alerts': [['{ engine: eng-prod-01 }', ['GET /api/monitoring/v1/engines/eng-prod-01/alerts']]],
  // A gate not met by the placeholder (no Engine online) lists its first check only, and waits for nothing.
  'monitoring/engines': [
    ['{ min-online: 3, wait: { timeout: 10m, interval: 2m } }', ['GET /api/monitoring/v1/engines']],
    ['{ engine: eng-main-01, wait: { timeout: 10m } }', ['GET /api/monitoring/v1/engines/eng-main-01']],
  ],
  'monitoring/sessions': [['{ max-active: 0, wait: { timeout: 1h } }', ['GET /api/monitoring/v1/sessions']]],
  'replication/sync': [['{ config: 1 }', ['POST /api/devops/v1/replication/configs/1/sync']]],
  'replication/check': [['{ configs: [1] }', ['GET /api/devops/v1/replication/configs']]],
  'transaction-log/clear': [['{}', ['POST /api/devops/v1/transaction-log/clear']]],
  'update/system': [
    [
      '{ target: staging, message: release 26.11 }',
      [
        'POST /api/devops/v1/update/system {"targetDBName":"STAGING","targetServer":"staging-db.example.com","targetUserName":"deploy","targetPassword":"***","messageComplement":"release 26.11"}',
      ],
    ],
  ],
  'update/vfs': [
    [
      '{ target: prod, files: [1001] }',
      [
        'POST /api/devops/v1/update/vfs {"targetDBName":"PROD","targetServer":"prod-db.example.com","targetAuthToken":"***","files":[1001]}',
      ],
    ],
  ],
};

/** Steps a case needs before it (a license code to add). */
const BEFORE: Record<string, string> = {
  'licensing/add': `  - id: pre
    uses: licensing/create
    with: ${CASES['licensing/create']![0]![0]}
`,
};

test('every step type has a case: a new one cannot go unplanned', () => {
  assert.deepEqual([...STEP_TYPES.keys()].sort(), Object.keys(CASES).sort());
});

for (const [uses, cases] of Object.entries(CASES)) {
  test(`${uses}: the plan lists the calls its run makes against the recording client`, async () => {
    for (const [withBlock, expected] of cases) {
      const yaml = oneStep(uses, withBlock).replace('steps:\n', `steps:\n${BEFORE[uses] ?? ''}`);
      // Nothing listens on port 9: the plan sends nothing.
      const env = { ENGINE_URL: 'http://127.0.0.1:9', ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
      const { pipeline } = loadPipeline({ file: 'test.yml', text: yaml, env });
      const step = (await planPipeline(pipeline, env)).steps.at(-1)!;
      const shown = step.calls.map((c: PlannedCall) => {
        const query = c.query ? `?${new URLSearchParams(c.query as Record<string, string>).toString()}` : '';
        return `${c.method} ${c.path}${query}${c.body === undefined ? '' : ` ${JSON.stringify(c.body)}`}`;
      });
      assert.deepEqual(shown, expected, `${uses} ${withBlock}`);
      assert.equal(step.note, undefined, uses);
    }
  });
}

/** A gate that says what it waits for and logs nothing: what a plan shows comes from StepEnv.waitFor, typed. */
const silentGate = {
  ...STEP_TYPES.get('monitoring/sessions')!,
  async run(_inputs: Record<string, unknown>, env: StepEnv) {
    await env.client().monitoring.sessions(env.call);
    env.waitFor({ what: 'the window to open', state: '3 active' });
    await env.sleep(60_000, env.signal);
    await env.client().monitoring.alerts(env.call);
    return { outputs: {} };
  },
} as StepType;

test('a gate that would wait stops at its first check, and says for what through StepEnv.waitFor: the dry walk and the live plan', async () => {
  const signal = new AbortController().signal;
  const dry = await recordCalls(silentGate, {}, {}, signal);
  assert.deepEqual(dry, { calls: [{ method: 'GET', path: '/api/monitoring/v1/sessions' }] });
  const client = new EngineClient({ url: 'http://127.0.0.1:9' }, { recordInto: [] });
  const live = await readNow(
    silentGate,
    {},
    {
      client: () => client,
      targets: {},
      masker: new Masker(),
      now: () => 0,
      signal,
      scope: { contexts: {}, status: { failed: false, cancelled: false } },
    },
  );
  assert.deepEqual(live, { state: 'would-wait', text: 'the window to open: 3 active', outputs: {} });
});
