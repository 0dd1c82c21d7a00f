// Steps that say "success" only when the API contract says so: a replication sync answered 500
// fails whatever its result array holds; a single Engine counts as online only if it reported
// within 5 minutes; a gate's wait bounds each of its checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oneStep, runYaml } from '../helpers/run.ts';
import { until } from '../helpers/timing.ts';

for (const [what, body] of [
  ['an empty result array', '[]'],
  [
    'results that all say success',
    JSON.stringify([
      {
        targetDatabase: 'REPLICA',
        sourceDatabase: 'MAIN',
        configName: 'c',
        errorMessage: '',
        success: true,
        executionTime: 1,
        startVersion: 1,
        endVersion: 2,
        updateVersions: [],
        stats: { numInserts: 1, numUpdates: 0, numDeletes: 0, numTransactionLogs: 1, numTargetEntries: 1 },
      },
    ]),
  ],
] as const) {
  test(`a replication sync answered HTTP 500 with ${what} fails, and the next step does not run`, async (t) => {
    const yaml = `version: 1
steps:
  - uses: replication/sync
  - uses: transaction-log/clear
`;
    const { result } = await runYaml(t, yaml, {
      setup: (e) =>
        e.faults.add({
          method: 'POST',
          path: '/api/devops/v1/replication/sync',
          status: 500,
          body,
          contentType: 'application/json',
        }),
    });
    assert.deepEqual(
      result.steps.map((s) => s.outcome),
      ['failure', 'skipped'],
    );
    assert.equal(result.steps[0]!.error?.code, 'REPLICATION_FAILED');
    assert.match(
      result.steps[0]!.error!.message,
      /HTTP 500 \(at least one replication failed\), but its result array (is empty|says all 1 succeeded)/,
    );
  });
}

test('monitoring/engines with engine: an Engine that exists but has not reported for 5 minutes is not online', async (t) => {
  const stale = await runYaml(t, oneStep('monitoring/engines', '{ engine: eng-prod-old }'));
  assert.equal(stale.result.steps[0]!.outcome, 'failure');
  assert.match(
    stale.result.steps[0]!.error!.message,
    /0 online, eng-prod-old offline \(last reported 3h ago by the server's clock; online means within 5m\)/,
  );
  assert.equal(stale.result.steps[0]!.outputs.online, 0);
  const live = await runYaml(t, oneStep('monitoring/engines', '{ engine: eng-prod-01, version: "26.10.3" }'));
  assert.equal(live.result.steps[0]!.outcome, 'success');
  const old = await runYaml(t, oneStep('monitoring/engines', '{ engine: eng-prod-01, version: "26.11.0" }'));
  assert.equal(old.result.steps[0]!.outcome, 'failure', 'the version rule holds on the single-Engine route too');
});

test(
  "a gate's wait bounds each check: a server that never answers fails the gate when the wait ends",
  { timeout: 60_000 },
  async (t) => {
    for (const [uses, path] of [
      ['monitoring/engines', '/api/monitoring/v1/engines'],
      ['monitoring/sessions', '/api/monitoring/v1/sessions'],
    ] as const) {
      const { result } = await runYaml(t, oneStep(uses, '{ wait: { timeout: 1s } }'), {
        setup: (e) => e.faults.add({ method: 'GET', path, hang: true }),
      });
      const step = result.steps[0]!;
      assert.equal(step.outcome, 'failure');
      assert.equal(step.error?.code, 'GATE_TIMEOUT');
      assert.match(
        step.error!.message,
        new RegExp(`not met within 1s: GET ${path} did not answer in the 1s the wait had left`),
      );
    }
  },
);

test(
  'an HTML error page of a megabyte of <title> is summarised at once (linear), and the step fails',
  { timeout: 30_000 },
  async (t) => {
    const { result } = await runYaml(t, oneStep('transaction-log/clear', '{}'), {
      setup: (e) =>
        e.faults.add({
          method: 'POST',
          path: '/api/devops/v1/transaction-log/clear',
          status: 500,
          body: '<title>'.repeat(150_000),
          contentType: 'text/html',
        }),
    });
    assert.equal(result.steps[0]!.outcome, 'failure');
    assert.equal(result.steps[0]!.error?.code, 'API_HTTP_STATUS');
    assert.match(result.steps[0]!.error!.message, /answered HTTP 500 with an HTML page/);
  },
);

/** A pipeline whose server reads answers of at most 1 MiB. */
const LIMITED = (steps: string) => `version: 1
servers:
  main: { url: "\${{ env.ENGINE_URL }}", username: admin, password: admin, max-response-size: 1MiB }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
${steps}`;

test('an answer over the server limit fails with its own code, is never retried, and a write says it may have been applied', async (t) => {
  const big = JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) });
  const { result, emulator } = await runYaml(
    t,
    LIMITED(`  - uses: monitoring/alerts
    continue-on-error: true
  - uses: update/vfs
    continue-on-error: true
    with: { target: prod, files: [1001] }
  - uses: transaction-log/clear
`),
    {
      setup: (e) => {
        e.faults.add({
          method: 'GET',
          path: '/api/monitoring/v1/alerts',
          status: 200,
          body: big,
          contentType: 'application/json',
        });
        e.faults.add({
          method: 'POST',
          path: '/api/devops/v1/update/vfs',
          status: 200,
          body: big,
          contentType: 'application/json',
        });
        // A status-only call reads its body and drops it: its size does not matter.
        e.faults.add({
          method: 'POST',
          path: '/api/devops/v1/transaction-log/clear',
          status: 200,
          body: big,
          contentType: 'application/json',
        });
      },
    },
  );
  const [get, post, clear] = result.steps;
  assert.equal(get!.error?.code, 'API_RESPONSE_TOO_LARGE');
  assert.match(
    get!.error!.message,
    /GET \/api\/monitoring\/v1\/alerts on .*: the answer is larger than 1 MiB, the limit of answers from this server$/,
  );
  assert.equal(emulator.requests.filter((r) => r.path === '/api/monitoring/v1/alerts').length, 1, 'not retried');
  assert.equal(post!.error?.code, 'API_RESPONSE_TOO_LARGE');
  assert.match(post!.error!.message, /the request was sent, and the server may have applied it/);
  assert.match(
    post!.error!.hint!,
    /check on the server whether the change was made before sending it again; raise max-response-size/,
  );
  assert.equal(clear!.outcome, 'success');
});

test('max-response-size is validated where it is written', async () => {
  const { loadPipeline } = await import('../../src/pipeline/load.ts');
  assert.throws(
    () =>
      loadPipeline({
        file: 'p.yml',
        text: LIMITED('  - uses: transaction-log/clear\n').replace('1MiB', '1 lot'),
        env: { ENGINE_URL: 'https://erp.example.com' },
      }),
    (e: { diagnostics: { line: number; message: string }[] }) =>
      e.diagnostics.some((d) => d.line === 3 && /must be a size such as 512MiB/.test(d.message)),
  );
});

test(
  'licensing/check: when one of its two reads fails, the other is stopped: no call outlives the step',
  { timeout: 20_000 },
  async (t) => {
    const { result, emulator } = await runYaml(t, oneStep('licensing/check', '{}'), {
      setup: (e) => {
        e.faults.add({ method: 'GET', path: '/api/licensing/v1/licenses', status: 404 });
        e.faults.add({ method: 'GET', path: '/api/licensing/v1/products', hang: true });
      },
    });
    assert.equal(result.steps[0]!.error?.code, 'API_NOT_FOUND');
    await until(() => emulator.inFlight === 0); // the hanging read was aborted with its step
  },
);
