// Every step type of the contract, once succeeding and once failing, against the emulator.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oneStep, runYaml } from '../helpers/run.ts';

test('transaction-log/clear: status 200; a user without the scopes fails with API_FORBIDDEN', async (t) => {
  const ok = await runYaml(t, oneStep('transaction-log/clear', '{}'));
  assert.equal(ok.result.outcome, 'success');
  assert.deepEqual(ok.result.steps[0]!.outputs, { status: 200 });
  const denied = await runYaml(t, oneStep('transaction-log/clear', '{}'), { user: ['monitor', 'monitor'] });
  assert.equal(denied.result.outcome, 'failure');
  assert.equal(denied.result.steps[0]!.error?.code, 'API_FORBIDDEN');
  assert.match(denied.result.steps[0]!.error!.message, /api\.devops and system\.clearTransactionLog/);
});

test('replication/sync: sums the counts of every target', async (t) => {
  const ok = await runYaml(t, oneStep('replication/sync', '{ config: 1 }'));
  const out = ok.result.steps[0]!.outputs;
  assert.deepEqual([out.succeeded, out.failed, out.inserts, out.updates, out.deletes], [2, 0, 2, 2, 0]);
  assert.equal(ok.result.steps[0]!.figures, '2/2 targets, inserts 2, updates 2, deletes 0');
});

test('replication/sync: HTTP 500 with results fails the step, naming the target; every result is kept', async (t) => {
  const { result, emulator } = await runYaml(t, oneStep('replication/sync', '{}'), {
    setup: (e) => e.failReplication('REPLICA-2', 'disk full'),
  });
  const step = result.steps[0]!;
  assert.equal(step.outcome, 'failure');
  assert.equal(step.error?.message, 'replication failed for REPLICA-2 (disk full)');
  assert.deepEqual([step.outputs.succeeded, step.outputs.failed], [1, 1]);
  assert.equal((step.result as unknown[]).length, 2);
  assert.equal(emulator.count('POST', '/api/devops/v1/replication/sync'), 1, 'never repeated implicitly');
});

test("update/system: outputs versions and versions names; success false fails the step with the server's errors", async (t) => {
  const ok = await runYaml(t, oneStep('update/system', '{ target: prod, tracking-id: T-1, products: "1,2" }'));
  const out = ok.result.steps[0]!.outputs;
  assert.deepEqual(out.versions, [2611001, 2611002, 2611003]);
  assert.equal(out['client-version'], '2026.11');
  assert.equal(out['server-version'], '26.11.0');
  assert.match(String(out.report), /^# System update of PROD/);
  assert.deepEqual(
    (ok.result.steps[0]!.inputs as { products: number[] }).products,
    [1, 2],
    'a list input from a comma string',
  );
  const bad = await runYaml(t, oneStep('update/system', '{ target: wrong }'));
  assert.equal(bad.result.outcome, 'failure');
  assert.equal(bad.result.steps[0]!.error?.code, 'STEP_FAILED');
  assert.match(
    bad.result.steps[0]!.error!.message,
    /success: false: authentication to PROD on prod-db\.example\.com failed/,
  );
});

test('update/vfs: summary and counts with user-name credentials; an unknown file fails', async (t) => {
  const ok = await runYaml(t, oneStep('update/vfs', '{ target: staging, files: [1001], directories: [/templates] }'));
  assert.equal(ok.result.steps[0]!.outputs.summary, '2 vfs file(s) on STAGING: 1 inserted, 1 updated, 0 unchanged');
  const bad = await runYaml(t, oneStep('update/vfs', '{ target: prod, files: [9999] }'));
  assert.equal(bad.result.outcome, 'failure');
  assert.match(bad.result.steps[0]!.error!.message, /no vfs file with key 9999/);
});

test('monitoring/engines: a gate that waits, then fails with the last observed state', async (t) => {
  const ok = await runYaml(t, oneStep('monitoring/engines', '{ min-online: 4 }'));
  assert.equal(ok.result.steps[0]!.outputs.online, 4);
  const bad = await runYaml(
    t,
    oneStep('monitoring/engines', '{ version: "26.11.0", wait: { timeout: 10m, interval: 2m } }'),
  );
  const step = bad.result.steps[0]!;
  assert.equal(step.outcome, 'failure');
  assert.match(
    step.error!.message,
    /all on 26\.11\.0 not met after 6 checks over 10m: 4 online, eng-prod-01 on 26\.10\.3/,
  );
  assert.equal(bad.emulator.count('GET', '/api/monitoring/v1/engines'), 6, 'polled every 2 minutes for 10 minutes');
  assert.equal(bad.logger.lines.filter((l) => l.includes('waiting for')).length, 5, 'says what it waits for');
  assert.equal(bad.clock.advanced(), 10 * 60_000);
});

test('monitoring/alerts: fail-on critical passes warnings; fail-on warning fails and lists them; ignore-codes', async (t) => {
  const ok = await runYaml(t, oneStep('monitoring/alerts', '{ fail-on: critical }'));
  assert.deepEqual([ok.result.steps[0]!.outputs.warnings, ok.result.steps[0]!.outputs.criticals], [2, 0]);
  const bad = await runYaml(t, oneStep('monitoring/alerts', '{ fail-on: warning, ignore-codes: [outdated_engine] }'));
  assert.equal(bad.result.outcome, 'failure');
  assert.match(
    bad.result.steps[0]!.error!.message,
    /1 alert\(s\) at or above warning: warning low_free_disk on eng-prod-02/,
  );
});

test('monitoring/sessions: drains until sessions expire; fails when the wait is too short', async (t) => {
  const ok = await runYaml(t, oneStep('monitoring/sessions', '{ max-active: 0, wait: { timeout: 1h } }'));
  assert.equal(ok.result.outcome, 'success');
  assert.equal(ok.result.steps[0]!.outputs.active, 0);
  const bad = await runYaml(
    t,
    oneStep('monitoring/sessions', '{ max-active: 0, engine: eng-prod-01, wait: { timeout: 10m, interval: 5m } }'),
  );
  assert.equal(bad.result.outcome, 'failure');
  assert.match(
    bad.result.steps[0]!.error!.message,
    /at most 0 active session\(s\) on eng-prod-01 not met after 3 checks over 10m: 2 active/,
  );
});

test('licensing/create then add; the code is masked in every report field and log line', async (t) => {
  const yaml = `version: 1
steps:
  - id: create
    uses: licensing/create
    with:
      licensee-id: ACME-001
      licensee-name: ACME Corp
      expiration: "2030-01-31"
      licenses: [{ product: 3, quantity: 9, type: P, extensions: [] }]
  - uses: licensing/add
    with: { code: "\${{ steps.create.outputs.code }}" }
  - uses: licensing/check
    with: { product: CRM, min-days-left: 30 }
`;
  const { result, logger, emulator } = await runYaml(t, yaml);
  assert.equal(result.outcome, 'success', JSON.stringify(result.steps.map((s) => s.error)));
  assert.equal(result.steps[0]!.outputs.code, '***');
  assert.equal(result.steps[1]!.inputs.code, '***');
  assert.equal(emulator.state.licenses.find((l) => l.productKey === 3)?.type, 'processor');
  assert.doesNotMatch(JSON.stringify(result) + logger.lines.join('\n'), /ELC1\./);
});

test("licensing/create: an unknown product fails with the server's 400", async (t) => {
  const { result } = await runYaml(
    t,
    oneStep(
      'licensing/create',
      '{ licensee-id: A, licensee-name: B, expiration: "2030-01-01", licenses: [{ product: 77, quantity: 1, type: C }] }',
    ),
  );
  assert.equal(result.steps[0]!.error?.code, 'API_HTTP_STATUS');
  assert.match(result.steps[0]!.error!.message, /HTTP 400/);
});

test('licensing/remove: 200 removed, 204 already without; an unknown product fails (404)', async (t) => {
  const yaml = `version: 1
steps:
  - { id: a, uses: licensing/remove, with: { key: 2 } }
  - { id: b, uses: licensing/remove, with: { key: 2 } }
  - { id: c, uses: licensing/remove, with: { key: 42 } }
`;
  const { result } = await runYaml(t, yaml);
  assert.deepEqual(
    result.steps.map((s) => s.outputs.status ?? s.error?.code),
    [200, 204, 'API_NOT_FOUND'],
  );
});

test('licensing/check: days left; fails under min-days-left or for a product without license', async (t) => {
  const ok = await runYaml(t, oneStep('licensing/check', '{ product: 1, min-days-left: 100 }'));
  assert.equal(ok.result.steps[0]!.outputs['days-left'], 200);
  const soon = await runYaml(t, oneStep('licensing/check', '{ product: Payroll, min-days-left: 30 }'));
  assert.match(soon.result.steps[0]!.error!.message, /expires in 20 day\(s\), fewer than min-days-left 30/);
  const none = await runYaml(t, oneStep('licensing/check', '{ product: CRM }'));
  assert.match(none.result.steps[0]!.error!.message, /product 3 \(CRM\) has no license/);
});

test('replication/check: the configurations named are enabled; a disabled or unknown one fails', async (t) => {
  const ok = await runYaml(t, oneStep('replication/check', '{ configs: ["Nightly to replicas"] }'));
  assert.equal(ok.result.steps[0]!.outcome, 'success');
  assert.deepEqual(ok.result.steps[0]!.outputs.configs, [
    { key: 1, name: 'Nightly to replicas', enabled: true, databases: ['REPLICA-1', 'REPLICA-2'] },
  ]);
  const all = await runYaml(t, oneStep('replication/check', '{}'));
  assert.match(all.result.steps[0]!.error!.message, /replication configuration\(s\) disabled: 2 Reporting copy/);
  assert.deepEqual(all.result.steps[0]!.outputs.disabled, ['Reporting copy']);
  const unknown = await runYaml(t, oneStep('replication/check', '{ configs: [9] }'));
  assert.match(
    unknown.result.steps[0]!.error!.message,
    /no replication configuration 9; there are 1 Nightly to replicas, 2 Reporting copy/,
  );
});

test('classes steps: create, get, query, update, delete; a 404 and a 400 fail', async (t) => {
  const yaml = `version: 1
steps:
  - id: create
    uses: classes/create
    with: { class: 30, fields: { iname: REL-1, ioutcome: started } }
  - id: get
    uses: classes/get
    with: { id: "\${{ steps.create.outputs.entity.ikey }}" }
  - id: query
    uses: classes/query
    with: { class: 30, where: { ioutcome: started } }
  - id: update
    uses: classes/update
    with: { id: "\${{ steps.get.outputs.entity.ikey }}", class: 30, fields: { ioutcome: success } }
  - id: delete
    uses: classes/delete
    with: { id: "\${{ steps.create.outputs.entity.ikey }}" }
  - id: missing
    uses: classes/get
    with: { id: "\${{ steps.create.outputs.entity.ikey }}" }
    continue-on-error: true
  - id: invalid
    uses: classes/create
    with: { class: 30, fields: { iname: X, ioutcome: maybe } }
`;
  const { result } = await runYaml(t, yaml);
  const out = (i: number) => result.steps[i]!.outputs;
  assert.equal((out(1).entity as { iname: string }).iname, 'REL-1');
  assert.equal(out(2).count, 1);
  assert.equal((out(3).entity as { ioutcome: string }).ioutcome, 'success');
  assert.equal(result.steps[4]!.outcome, 'success');
  assert.equal(result.steps[5]!.error?.code, 'API_NOT_FOUND');
  assert.equal(result.steps[5]!.continuedOnError, true);
  assert.match(result.steps[6]!.error!.message, /HTTP 400/);
});

test("classes steps read an entity of any class: a class's own fields are its own, whatever a users-and-groups class calls by the same name", async (t) => {
  // Invoices (21) define istatus as a string and iproduct as an integer: the other way round from users.
  const yaml = `version: 1
name: invoices
steps:
  - id: query
    uses: classes/query
    with: { class: 21, where: { istatus: open } }
  - id: get
    uses: classes/get
    with: { id: 3001 }
  - id: update
    uses: classes/update
    with: { id: 3001, class: 21, fields: { istatus: open } }
`;
  const { result } = await runYaml(t, yaml);
  const [query, get, update] = result.steps;
  assert.equal(result.outcome, 'success', JSON.stringify(result.steps.map((s) => s.error)));
  assert.equal(query!.outputs.count, 2);
  assert.deepEqual(
    [(get!.outputs.entity as { istatus: string }).istatus, (get!.outputs.entity as { iproduct: number }).iproduct],
    ['paid', 1],
  );
  assert.equal((update!.outputs.entity as { istatus: string }).istatus, 'open');
  assert.equal(update!.inDoubt, undefined, 'an update the server answered 200 is applied, never in doubt');
});

test('classes/query filters entities of child classes', async (t) => {
  const { result } = await runYaml(t, oneStep('classes/query', '{ class: 22, where: { entidade: 3001 } }'));
  assert.equal(result.steps[0]!.outputs.count, 2);
});

test('api/request: any call; fails when the status is not the expected one', async (t) => {
  const ok = await runYaml(t, oneStep('api/request', '{ path: /api/licensing/v1/products/1 }'));
  assert.equal((ok.result.steps[0]!.outputs.body as { name: string }).name, 'ERP Core');
  const expected404 = await runYaml(
    t,
    oneStep('api/request', '{ path: /api/licensing/v1/products/9, expect-status: [404] }'),
  );
  assert.equal(expected404.result.outcome, 'success');
  const bad = await runYaml(
    t,
    oneStep('api/request', '{ method: POST, path: /api/devops/v1/update/vfs, body: { targetDBName: PROD } }'),
  );
  assert.equal(bad.result.steps[0]!.error?.code, 'API_HTTP_STATUS', 'the code a typed call would give');
  assert.match(
    bad.result.steps[0]!.error!.message,
    /^POST \/api\/devops\/v1\/update\/vfs on http:\/\/127\.0\.0\.1:\d+: the server answered HTTP 400: .+; expected a 2xx status$/,
  );
  const unexpected = await runYaml(
    t,
    oneStep('api/request', '{ path: /api/licensing/v1/products/1, expect-status: [404] }'),
  );
  assert.equal(unexpected.result.steps[0]!.error?.code, 'API_UNEXPECTED_STATUS');
  assert.match(
    unexpected.result.steps[0]!.error!.message,
    /^GET \/api\/licensing\/v1\/products\/1 on http:\/\/127\.0\.0\.1:\d+: answered HTTP 200; expected 404$/,
  );
});

test('assert: bare or ${{ }} expressions; a false one fails with its message', async (t) => {
  const ok = await runYaml(t, oneStep('assert', '{ that: "pipeline.name == \'test\'" }'));
  assert.equal(ok.result.outcome, 'success');
  const bad = await runYaml(t, oneStep('assert', '{ that: "${{ 1 > 2 }}", message: one is not more than two }'));
  assert.equal(bad.result.steps[0]!.error?.message, 'one is not more than two');
});
