// How the runner executes: conditions, continue-on-error, timeouts, explicit retries (counted at
// the emulator), matrix concurrency (observed at the emulator), fail-fast, --only, heartbeats,
// cancellation and masking.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import type { Emulator } from '../../src/emulator/index.ts';
import { runYaml } from '../helpers/run.ts';
import { manualTimer, until } from '../helpers/timing.ts';

const VFS = '/api/devops/v1/update/vfs';
const head = `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
  staging: { server: staging-db.example.com, database: STAGING, token: staging-token }
  wrong: { server: prod-db.example.com, database: PROD, token: nope }
`;

test('after a failure, later steps are skipped unless their if allows it: always(), failure()', async (t) => {
  const { result } = await runYaml(
    t,
    `${head}steps:
  - { id: bad, uses: assert, with: { that: false } }
  - { name: default, uses: assert, with: { that: true } }
  - { name: always, uses: assert, with: { that: true }, if: always() }
  - { name: on-failure, uses: assert, with: { that: "\${{ steps.bad.outcome == 'failure' }}" }, if: failure() }
  - { name: on-success, uses: assert, with: { that: true }, if: success() }
  - { name: plain-condition, uses: assert, with: { that: true }, if: "pipeline.name == 'test'" }
`,
  );
  assert.deepEqual(
    result.steps.map((s) => s.outcome),
    ['failure', 'skipped', 'success', 'success', 'skipped', 'skipped'],
  );
  assert.equal(result.outcome, 'failure');
});

test('continue-on-error records the failure and lets the pipeline go on and succeed', async (t) => {
  const { result } = await runYaml(
    t,
    `${head}steps:
  - { id: check, uses: assert, with: { that: false }, continue-on-error: true }
  - { uses: assert, with: { that: "\${{ steps.check.outcome == 'failure' }}" } }
`,
  );
  assert.deepEqual(
    result.steps.map((s) => [s.outcome, s.continuedOnError]),
    [
      ['failure', true],
      ['success', false],
    ],
  );
  assert.equal(result.outcome, 'success');
});

test('a step timeout aborts the call in flight and fails the step', async (t) => {
  // The limit runs out once the call has reached the server (which never answers): no machine is too slow for it.
  const time = manualTimer();
  let server: Emulator | undefined;
  const running = runYaml(
    t,
    `${head}steps:
  - { uses: update/vfs, timeout: 2s, with: { target: prod, files: [1001] } }
`,
    { emulator: { faults: [{ path: VFS, hang: true }] }, timer: time.timer, setup: (e) => (server = e) },
  );
  await until(() => server?.count('POST', VFS) === 1);
  assert.deepEqual(time.pending(), [2000], "the step's limit, set before its call left");
  time.fire();
  const { result, emulator } = await running;
  assert.equal(result.steps[0]!.error?.code, 'STEP_TIMEOUT');
  assert.match(
    result.steps[0]!.error!.message,
    /^timed out after 2s waiting for POST \/api\/devops\/v1\/update\/vfs on http:\/\/127\.0\.0\.1:\d+$/,
  );
  assert.equal(emulator.count('POST', VFS), 1, 'sent once, never again');
  await until(() => emulator.inFlight === 0); // the server saw the connection close: the call was aborted
});

test('retry: a POST is sent again only with retry, as many times as it says', async (t) => {
  const faults = [{ path: VFS, status: 409, times: 2 }];
  const none = await runYaml(
    t,
    `${head}steps:
  - { uses: update/vfs, with: { target: prod, files: [1001] } }
`,
    { emulator: { faults } },
  );
  assert.equal(none.result.outcome, 'failure');
  assert.equal(none.emulator.count('POST', VFS), 1, 'no implicit retry of a non-idempotent call');
  const retried = await runYaml(
    t,
    `${head}steps:
  - { uses: update/vfs, retry: { attempts: 3, delay: 10s, backoff: 2 }, with: { target: prod, files: [1001] } }
`,
    { emulator: { faults: [{ path: VFS, status: 409, times: 2 }] } },
  );
  assert.equal(retried.result.outcome, 'success');
  assert.equal(retried.result.steps[0]!.attempts, 3);
  assert.equal(retried.emulator.count('POST', VFS), 3);
  assert.equal(retried.clock.advanced(), 10_000 + 20_000, 'delay then delay x backoff');
  assert.equal(retried.logger.lines.filter((l) => /attempt \d of 3 failed/.test(l)).length, 2);
});

test('a GET-only step retries transient faults by itself (bounded), without retry', async (t) => {
  const { result, emulator } = await runYaml(
    t,
    `${head}steps:
  - { uses: monitoring/alerts }
`,
    { emulator: { faults: [{ path: '/api/monitoring/v1/alerts', status: 502, times: 2 }] } },
  );
  assert.equal(result.outcome, 'success');
  assert.equal(emulator.count('GET', '/api/monitoring/v1/alerts'), 3);
});

test('matrix: max-parallel bounds the calls in flight at the emulator; every instance is its own row', async (t) => {
  const { result, emulator } = await runYaml(
    t,
    `${head}steps:
  - uses: update/vfs
    matrix: { target: [prod, staging], file: [1001, 1002, 1003] }
    max-parallel: 2
    with: { target: "\${{ matrix.target }}", files: ["\${{ matrix.file }}"] }
`,
    { emulator: { faults: [{ path: VFS, latencyMs: 60 }] } },
  );
  assert.equal(result.steps.length, 6);
  assert.deepEqual(
    result.steps.map((s) => s.name),
    [
      'VFS update (target=prod, file=1001)',
      'VFS update (target=prod, file=1002)',
      'VFS update (target=prod, file=1003)',
      'VFS update (target=staging, file=1001)',
      'VFS update (target=staging, file=1002)',
      'VFS update (target=staging, file=1003)',
    ],
  );
  assert.ok(result.steps.every((s) => s.outcome === 'success'));
  assert.equal(emulator.peakInFlight, 2, 'never above max-parallel, and it was reached');
});

test('fail-fast (default): after a failed instance, the ones not started are cancelled', async (t) => {
  const yaml = (failFast: boolean) => `${head}steps:
  - uses: update/system
    matrix: { target: [wrong, staging, prod] }
    fail-fast: ${failFast}
    with: { target: "\${{ matrix.target }}" }
`;
  const fast = await runYaml(t, yaml(true));
  assert.deepEqual(
    fast.result.steps.map((s) => s.outcome),
    ['failure', 'cancelled', 'cancelled'],
  );
  assert.equal(fast.result.steps[1]!.error?.code, 'FAIL_FAST');
  assert.equal(fast.emulator.count('POST', '/api/devops/v1/update/system'), 1);
  const all = await runYaml(t, yaml(false));
  assert.deepEqual(
    all.result.steps.map((s) => s.outcome),
    ['failure', 'success', 'success'],
  );
});

test('--only keeps the matrix instances with that value', async (t) => {
  const { result, emulator } = await runYaml(
    t,
    `${head}steps:
  - uses: update/system
    matrix: { target: [staging, prod] }
    with: { target: "\${{ matrix.target }}" }
`,
    { selection: { only: { target: ['prod'] }, skip: {} } },
  );
  assert.deepEqual(
    result.steps.map((s) => s.matrix),
    [{ target: 'prod' }],
  );
  assert.equal(emulator.count('POST', '/api/devops/v1/update/system'), 1);
});

test('a heartbeat line comes while a call is long', async (t) => {
  const { logger } = await runYaml(
    t,
    `${head}steps:
  - { uses: update/vfs, with: { target: prod, files: [1001] } }
`,
    { emulator: { faults: [{ path: VFS, latencyMs: 150 }] }, heartbeatMs: 40 },
  );
  assert.ok(
    logger.lines.some((l) => /still running/.test(l)),
    logger.lines.join('\n'),
  );
});

test('cancellation aborts the call in flight, marks the rest cancelled, and returns the run', async (t) => {
  const controller = new AbortController();
  let server: Emulator | undefined;
  const running = runYaml(
    t,
    `${head}steps:
  - { uses: update/vfs, with: { target: prod, files: [1001] } }
  - { uses: transaction-log/clear }
  - { uses: assert, if: always(), with: { that: true } }
`,
    { emulator: { faults: [{ path: VFS, hang: true }] }, signal: controller.signal, setup: (e) => (server = e) },
  );
  await until(() => server?.count('POST', VFS) === 1);
  controller.abort();
  const { result, emulator } = await running;
  assert.equal(result.outcome, 'cancelled');
  assert.deepEqual(
    result.steps.map((s) => s.outcome),
    ['cancelled', 'cancelled', 'cancelled'],
  );
  assert.ok(result.steps[0]!.inDoubt, 'the update had been sent: in doubt');
  assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), 0);
  await until(() => emulator.inFlight === 0);
});

test('secrets are masked in inputs, outputs, errors and log lines, also when echoed back', async (t) => {
  const secret = 'S3cr3t-T0ken-Value';
  const { result, logger } = await runYaml(
    t,
    `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.MY_TOKEN }}" }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
  - uses: assert
    if: always()
    with: { that: false, message: "the token was \${{ secrets.MY_TOKEN }}" }
  - uses: api/request
    if: always()
    with: { path: "/api/monitoring/v1/engines/\${{ secrets.MY_TOKEN }}" }
`,
    { env: { MY_TOKEN: secret } },
  );
  assert.equal(result.steps[0]!.error?.message.includes('token was refused'), true);
  assert.equal(result.steps[1]!.error?.message, 'the token was ***');
  assert.match(result.steps[2]!.error!.message, /engines\/\*\*\*/, 'the server echoed it in the 404 path');
  const everything = JSON.stringify(result) + logger.lines.join('\n');
  assert.ok(!everything.includes(secret));
  assert.ok(!everything.includes(Buffer.from(secret).toString('base64')));
});

test('outputs flow to later steps; whole-value expressions keep their type', async (t) => {
  const { result } = await runYaml(
    t,
    `${head}vars: { files: [1001, 1004] }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: "\${{ vars.files }}" }
  - uses: assert
    with: { that: "\${{ steps.vfs.outputs.inserts == 1 && steps.vfs.outputs.updates == 1 && contains(steps.vfs.outputs.summary, 'PROD') }}" }
`,
  );
  assert.equal(result.outcome, 'success', JSON.stringify(result.steps.map((s) => s.error)));
  assert.deepEqual(result.steps[0]!.inputs.files, [1001, 1004]);
});

test("a var read only in a bare condition (if:, an assert's that:) has its value when the run starts: a step guarded against prod is skipped on prod", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-bare-vars-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'guarded.yml');
  writeFileSync(
    file,
    `version: 1
vars:
  stage: prod
  on: true
  n: 3
steps:
  - name: Clear the transaction log (never on prod)
    uses: transaction-log/clear
    if: vars.stage != 'prod'
  - name: on
    uses: assert
    if: vars.on
    with: { that: vars.n == 3 }
`,
  );
  const json = join(dir, 'r.json');
  const r = await runCli(['run', file, '--emulator', '--report-json', json]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as { steps: { name: string; outcome: string }[] };
  assert.deepEqual(
    report.steps.map((s) => [s.name, s.outcome]),
    [
      ['Clear the transaction log (never on prod)', 'skipped'],
      ['on', 'success'],
    ],
  );
});
