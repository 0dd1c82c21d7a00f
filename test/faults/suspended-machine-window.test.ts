// The machine suspended in the middle of a run (a laptop's lid closed, a VM paused): the run's real
// clock is steady (app/clock.ts: the wall clock at the process's start, then the monotonic clock),
// and on Linux the monotonic clock does not advance while the machine is suspended, so after a
// suspend that clock lags the real time by the suspend's length. A window judged on it alone is
// judged that long in the past, and a write goes into a window that closed meanwhile. Simulated as a
// suspend looks to the process: the wall clock (Date.now) jumps 3 hours ahead, the monotonic clock
// (performance.now) does not. In this process only: a CLI run as a process
// (ENGINECTL_TEST_PROCESS=1) has a wall clock of its own, which the test cannot move. Windows are
// judged at the later of the two clocks (schedule/window-time.ts): a wall clock set back moves none
// back; the quiet gate's judgement again after a wait, and a sharded worker's wait for a site's
// window, read them as admission does (a clock shaped as the real one: its `latest`).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { actionDef } from '../../src/action/definitions.ts';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { runCli } from '../helpers/cli.ts';
import { runActionInProcess } from '../helpers/toolkit.ts';
import { shardFleet } from '../shard/helpers.ts';

const HOURS_3 = 3 * 3_600_000;
const inProcess =
  process.env.ENGINECTL_TEST_PROCESS === '1' ? 'the CLI runs as a process: its clocks are its own' : false;

/**
 * A site whose wall clock (Date.now, the emulator's too) jumps `jump` ms (3 hours ahead by default)
 * as the read before the write reaches it, the monotonic clock left alone; and a pipeline whose
 * 20-minute window opens at this minute (UTC): open when the run starts, closed 3 hours later.
 */
async function suspendedMidRun(t: TestContext, jump = HOURS_3) {
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
        Date.now = () => realNow() + jump;
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

test(
  'the wall clock set back 3 hours in the middle of a run (NTP, an operator) moves no window back: the write goes out in the window open on the steady clock',
  { skip: inProcess },
  async (t) => {
    const { state, pipeline, sent } = await suspendedMidRun(t, -HOURS_3);
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-set-back-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'p.yml');
    writeFileSync(file, pipeline);
    const r = await runCli(['run', file]);
    assert.ok(state.suspended, 'the clock was set back');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(sent(), 1, 'judged at the later of the two clocks, the steady one: inside the window');
  },
);

test(
  'a suspend during the wait for quiet: the write is judged again at the later of the run clock and the wall clock, and not sent into the window that closed meanwhile',
  { skip: inProcess },
  async (t) => {
    // The wall clock (the emulator's): its time moves on with each wait alone, and 3 hours more in the
    // first one (the machine suspended). The run's clock is as the real one: its steady time does not
    // count the suspend, and its `latest` is the later of the two.
    const wall = simulatedClock(Date.parse('2026-03-10T02:30:00Z'), () => 0);
    let lag = 0;
    const clock: Clock = {
      now: () => wall.now() - lag,
      sleep: async (ms, signal) => {
        await wall.sleep(ms, signal);
        if (lag > 0) return;
        lag = HOURS_3;
        await wall.sleep(HOURS_3, signal);
      },
      latest: () => Math.max(wall.now() - lag, wall.now()),
    };
    const sites = new Sites({ now: wall.now });
    const server = await serve(sites, { port: 0 });
    t.after(() => server.close());
    const site = sites.site('site-001');
    // One user in until 02:45 on the wall clock: the write waits for quiet from 02:30.
    site.state.sessions = [{ ...site.state.sessions[0]!, userName: 'jdoe', expiresAt: wall.now() + 15 * 60_000 }];
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-suspend-quiet-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'p.yml');
    writeFileSync(
      file,
      `version: 1
servers:
  site: { url: "${server.url}/sites/site-001", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC, quiet: {} }
steps:
  - id: clear
    uses: transaction-log/clear
    server: site
    expected: 40m
`,
    );
    const json = join(dir, 'r.json');
    const r = await runCli(['run', file, '--report-json', json], { clock });
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      steps: { id: string; window: { verdict: string; at: string } | null; error: { code: string } | null }[];
    };
    const clear = report.steps.find((s) => s.id === 'clear')!;
    assert.match(r.stdout, /waiting for the application to be quiet: 1 session\(s\) stay: jdoe/);
    assert.equal(site.requests.filter((q) => q.applied && q.path.endsWith('/transaction-log/clear')).length, 0);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(clear.error?.code, 'WINDOW_CLOSED');
    assert.equal(clear.window?.verdict, 'closed');
    assert.equal(clear.window?.at, '2026-03-10T05:31:00.000Z');
  },
);

test(
  "a sharded worker whose clock lags the wall clock by a suspend waits for a site's window on the clock the site's run judges it on",
  { skip: inProcess },
  async (t) => {
    const f = await shardFleet(t, 2, '  over: site\n  waves: [rest]\n  max-failures: 0');
    writeFileSync(
      f.file,
      readFileSync(f.file, 'utf8').replace(
        '\nsteps:\n',
        '\nwindows:\n  night:\n    cron: "0 22 * * *"\n    duration: 6h\n    zone: UTC\n    matrix: { site: [site-0002] }\nsteps:\n',
      ),
    );
    const run = (await f.shard('--shards', '1')).run;
    // The wall clock at 21:40, the run's steady time 25 minutes behind it (the machine was suspended
    // that long): site-0002's window opens in 20 minutes, within the worker's 30m of waiting; on the
    // steady time alone it would open in 45.
    const wall = simulatedClock(Date.parse('2027-03-01T21:40:00Z'), () => 0);
    const clock: Clock = { now: () => wall.now() - 25 * 60_000, sleep: wall.sleep, latest: wall.now };
    const r = await runCli(
      [
        'run',
        f.file,
        '--store',
        f.storeUrl,
        '--run',
        run,
        '--shard',
        '1/1',
        '--shard-wait',
        '30m',
        '--shard-ttl',
        '24h',
      ],
      { env: f.env, clock },
    );
    const out = r.stdout + r.stderr;
    assert.match(out, /site site-0002: its write waits for its window \(opens at 2027-03-01T22:00:00\.000Z\)/);
    assert.equal(r.code, 0, out);
    assert.deepEqual(f.applied('/update/system'), { 'site-0001': 1, 'site-0002': 1 });
  },
);
