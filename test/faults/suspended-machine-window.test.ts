// The machine suspended in the middle of a run (a laptop's lid closed, a VM paused): the run's real
// clock is steady (app/clock.ts: the wall clock at the process's start, then the monotonic clock),
// and on Linux the monotonic clock does not advance while the machine is suspended, so after a
// suspend that clock lags the real time by the suspend's length. A window judged on it alone is
// judged that long in the past, and a write goes into a window that closed meanwhile. Simulated as a
// suspend looks to the process: the wall clock (Date.now) jumps 3 hours ahead, the monotonic clock
// (performance.now) does not. In this process only: a CLI run as a process
// (ENGINECTL_TEST_PROCESS=1) has a wall clock of its own, which the test cannot move.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { runCli } from '../helpers/cli.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';

const HOURS_3 = 3 * 3_600_000;
const inProcess =
  process.env.ENGINECTL_TEST_PROCESS === '1' ? 'the CLI runs as a process: its wall clock is its own' : false;

/**
 * A site whose wall clock (Date.now, the emulator's too) jumps 3 hours ahead as the read before the
 * write reaches it, the monotonic clock left alone; and a pipeline whose 20-minute window opens at
 * this minute (UTC): open when the run starts, closed 3 hours later.
 */
async function suspendedMidRun(t: TestContext) {
  const realNow = Date.now;
  t.after(() => (Date.now = realNow));
  const sites = new Sites({ now: () => Date.now() });
  const server = await serve(sites, { port: 0 });
  t.after(() => server.close());
  const state = { suspended: false };
  const url = await gatewayInFront(
    t,
    server.url,
    () => undefined,
    (method, path) => {
      if (!state.suspended && method === 'GET' && path.includes('/monitoring/')) {
        state.suspended = true;
        Date.now = () => realNow() + HOURS_3;
      }
    },
  );
  const start = new Date(realNow());
  const pipeline = `version: 1
servers:
  site: { url: "${url}/sites/site-001", username: admin, password: admin }
windows:
  now: { cron: '${start.getUTCMinutes()} ${start.getUTCHours()} * * *', duration: 20m, zone: UTC }
steps:
  - id: alerts
    uses: monitoring/alerts
    server: site
  - id: clear
    uses: transaction-log/clear
    server: site
    expected: 5m
`;
  const sent = () =>
    sites
      .started()
      .get('site-001')
      ?.requests.filter((q) => q.applied && q.path.endsWith('/transaction-log/clear')).length ?? 0;
  return { state, pipeline, sent };
}

test(
  'a machine suspended for 3 hours in the middle of a run does not send a write into a window that closed meanwhile',
  { skip: inProcess },
  async (t) => {
    const { state, pipeline, sent } = await suspendedMidRun(t);
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-suspend-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'p.yml');
    writeFileSync(file, pipeline);
    const json = join(dir, 'r.json');
    const r = await runCli(['run', file, '--report-json', json]);
    assert.ok(state.suspended, 'the suspend happened');
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      steps: { id: string; window: { verdict: string; at: string; windowEnd?: string } | null }[];
    };
    const window = report.steps.find((s) => s.id === 'clear')!.window!;
    assert.equal(
      sent(),
      0,
      `sent at ${new Date(Date.now()).toISOString()} (wall clock) into a window ending ${window.windowEnd}: admitted as "${window.verdict}" at ${window.at} on the run's clock; exit ${r.code}`,
    );
    assert.equal(r.code, 1, r.stderr);
    assert.equal(window.verdict, 'closed');
  },
);

test('the action: a machine suspended for 3 hours in the middle of a run does not send a write into a window that closed meanwhile', async (t) => {
  const { state, pipeline, sent } = await suspendedMidRun(t);
  const run = await runActionInProcess(actionDef('enginectl'), {
    files: { 'release.yml': pipeline },
    inputs: { pipeline: 'release.yml' },
  });
  assert.ok(state.suspended, 'the suspend happened');
  assert.equal(sent(), 0, `sent into a window that closed meanwhile: ${run.log.join('\n')}`);
  assert.equal(run.outputs.outcome, 'failure');
  assert.match(run.errors.map((e) => e.message).join('\n'), /no window of its site is open/);
});
