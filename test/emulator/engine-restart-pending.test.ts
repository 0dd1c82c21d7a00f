// An Engine reports the version it runs (api 2.7). A system update installs the new release
// (api 4.4: "including the Engine"), but an Engine not restarted, because the update was sent with
// disableEngineRestart (2.12) or because it is offline, keeps running, and reporting, its old
// version until it starts again; an offline Engine's monitoring data (its version, start and
// updatedAt) does not change at all until it reports again. A gate on the new version after such
// an update must not pass in a dry run when it would time out on a real server.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { runYaml } from '../helpers/run.ts';

const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const MINUTE = 60_000;
const PROD = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };
type Engine = { instanceId: string; version: string; startedAt: number; updatedAt: number };

async function emulatorAt(t: TestContext) {
  // 10 s past a refresh of monitoring on the emulator's clock.
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:10Z'));
  const { url, emulator } = await startEmulator(t, { now: clock.now });
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: basic, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    assert.equal(res.status, 200, path);
    return res.json() as Promise<T>;
  };
  const engine = (id: string) => call<Engine>('GET', `/api/monitoring/v1/engines/${id}`);
  const prod = async () => Promise.all(['eng-prod-01', 'eng-prod-02', 'eng-prod-old'].map(engine));
  const pass = (ms: number) => clock.sleep(ms, new AbortController().signal);
  return { clock, emulator, call, prod, pass };
}

test('after a system update with disableEngineRestart, the Engines keep reporting their running (old) version and start, past every refresh', async (t) => {
  const { clock, call, prod, pass } = await emulatorAt(t);
  const before = await prod();
  assert.deepEqual(
    before.map((e) => e.version),
    ['26.10.3', '26.10.3', '26.10.3'],
  );
  const result = await call<{ warnings: { code: string }[]; stats: { operations: Record<string, number> } }>(
    'POST',
    '/api/devops/v1/update/system',
    { ...PROD, disableEngineRestart: true },
  );
  assert.ok(result.warnings.some((w) => w.code === 'engine_restart_pending'));
  assert.equal(result.stats.operations['restart engine'], 0);
  await pass(10 * MINUTE);
  const after = await prod();
  assert.deepEqual(
    after.map((e) => [e.instanceId, e.version, e.startedAt]),
    before.map((e) => [e.instanceId, e.version, e.startedAt]),
    'not restarted: the old version runs',
  );
  assert.equal(after[2]!.updatedAt, before[2]!.updatedAt, "the offline Engine's data is as old as it was");

  // A later update that may restart them: the online ones start on the new release; the offline one does not change.
  const restartAt = clock.now();
  const second = await call<{ stats: { operations: Record<string, number> } }>(
    'POST',
    '/api/devops/v1/update/system',
    PROD,
  );
  assert.equal(second.stats.operations['restart engine'], 2);
  await pass(3 * MINUTE);
  const restarted = await prod();
  assert.deepEqual(
    restarted.map((e) => e.version),
    ['26.11.0', '26.11.0', '26.10.3'],
  );
  for (const e of restarted.slice(0, 2))
    assert.ok(e.startedAt >= restartAt && e.startedAt < restartAt + MINUTE, `${e.instanceId} started by the update`);
  assert.deepEqual([restarted[2]!.startedAt, restarted[2]!.updatedAt], [before[2]!.startedAt, before[2]!.updatedAt]);
});

test("an offline Engine's monitoring data does not change with a system update: it is not restarted, and runs the old version until it starts again", async (t) => {
  const { clock, emulator, call, prod, pass } = await emulatorAt(t);
  const before = await prod();
  const result = await call<{ report: string }>('POST', '/api/devops/v1/update/system', PROD);
  assert.match(result.report, /eng-prod-old .*no \(offline\)/);
  await pass(10 * MINUTE);
  const [one, two, old] = await prod();
  assert.deepEqual([one!.version, two!.version], ['26.11.0', '26.11.0'], 'restarted on the new release');
  assert.deepEqual(
    [old!.version, old!.startedAt, old!.updatedAt],
    [before[2]!.version, before[2]!.startedAt, before[2]!.updatedAt],
  );
  // Started again (the emulator's control, as an operator would): it runs and reports the release installed on it.
  emulator.restartEngine('eng-prod-old');
  const started = (await prod())[2]!;
  assert.equal(started.version, '26.11.0');
  assert.ok(started.startedAt > before[2]!.startedAt && started.updatedAt <= clock.now());
  assert.ok(
    (await call<Engine[]>('GET', '/api/monitoring/v1/engines')).some((e) => e.instanceId === 'eng-prod-old'),
    'online again',
  );
});

test('a gate on the new version after an update sent with disable-engine-restart times out, as on a real server', async (t) => {
  const yaml = `version: 1
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: up
    uses: update/system
    with: { target: prod, disable-engine-restart: true }
  - id: gate
    uses: monitoring/engines
    with: { database: PROD, version: 26.11.0, wait: { timeout: 6m } }
`;
  const r = await runYaml(t, yaml);
  assert.deepEqual(
    r.result.steps.map((s) => s.outcome),
    ['success', 'failure'],
  );
  assert.match(r.result.steps[1]!.error!.message, /eng-prod-01 on 26\.10\.3/);
});
