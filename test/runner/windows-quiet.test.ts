// "When the users are out": a window with quiet: admits a write only once no application session
// stays on the server's Engines but those excepted (by user or application) or dropping within
// dropping-within; the gate waits inside the window on the run's clock (the emulator's simulated
// one: sessions expire and drop on it), and a write the window ends on first is not started.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';

const MINUTE = 60_000;
const at = (text: string) => Date.parse(text);

/** One site whose window 02:00-04:00 UTC asks for quiet; its sessions as given, the clock at `start`. */
async function quietSite(t: TestContext, start: string, sessions: (now: number) => Record<string, unknown>[]) {
  const clock = simulatedClock(at(start));
  const sites = new Sites({ now: clock.now });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const site = sites.site('site-001');
  const template = site.state.sessions[0]!;
  site.state.sessions = sessions(clock.now()).map((s) => ({ ...template, ...s }) as typeof template);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-quiet-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'quiet.yml');
  writeFileSync(
    file,
    `version: 1
servers:
  site: { url: "${running.url}/sites/site-001", username: admin, password: admin }
windows:
  night:
    cron: '0 2 * * *'
    duration: 2h
    zone: UTC
    quiet: { except: [svc-batch, Monitoring Agent], dropping-within: 10m }
steps:
  - id: clear
    name: clear
    uses: transaction-log/clear
    server: site
    expected: 40m
`,
  );
  let n = 0;
  const run = async (...args: string[]) => {
    const json = join(dir, `report-${++n}.json`);
    const summary = join(dir, `summary-${n}.md`);
    const r = await runCli(['run', file, '--report-json', json, '--summary', summary, ...args], { clock });
    const report = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Report) : undefined;
    return { ...r, report, clear: report?.steps.find((s) => s.id === 'clear'), summary: readFileSync(summary, 'utf8') };
  };
  const clears = () => site.requests.filter((r) => r.applied && r.path.endsWith('/transaction-log/clear')).length;
  return { run, clears, storeUrl: `file://${store}`, clock };
}

const session = (sessionId: string, userName: string, expiresAt: number, extra: Record<string, unknown> = {}) => ({
  sessionId,
  userName,
  engineId: 'eng-prod-01',
  applicationName: 'ERP Desktop',
  expiresAt,
  dropsAt: null,
  ...extra,
});

test('the write waits inside its window until the users are out: the excepted and the dropping do not count', async (t) => {
  const f = await quietSite(t, '2026-03-10T02:00:00Z', (now) => [
    session('s-1', 'jdoe', now + 30 * MINUTE),
    session('s-2', 'svc-batch', now + 10 * 60 * MINUTE),
    session('s-3', 'probe', now + 10 * 60 * MINUTE, { applicationName: 'Monitoring Agent' }),
    // A drop requested, due in 5 minutes (within dropping-within): as good as gone.
    session('s-4', 'asmith', now + 10 * 60 * MINUTE, { dropsAt: now + 5 * MINUTE }),
  ]);
  const r = await f.run();
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /waiting for the application to be quiet: 1 session\(s\) stay: jdoe \(ERP Desktop\) on eng-prod-01/,
  );
  assert.equal(r.clear?.outcome, 'success');
  assert.equal(r.clear?.window?.verdict, 'fits');
  // jdoe's session expires at 02:30 on the run's clock: the write starts at the first read after.
  const started = at(r.clear!.window!.at);
  assert.ok(started >= at('2026-03-10T02:30:00Z') && started <= at('2026-03-10T02:32:00Z'), r.clear!.window!.at);
  assert.ok(r.clear!.window!.waitedMs! >= 30 * MINUTE, String(r.clear!.window!.waitedMs));
  assert.match(
    r.summary,
    /\| clear \(window: fits \(the window ends 2026-03-10T04:00:00.000Z\); waited 3[01]m\S*\) \|/,
  );
  assert.equal(f.clears(), 1);
});

test('a window that ends before the users are out: the write is not started, naming who stayed and the next window', async (t) => {
  // jdoe stays until 03:30; the 44m the write needs stop fitting at 03:16.
  const f = await quietSite(t, '2026-03-10T02:00:00Z', (now) => [session('s-1', 'jdoe', now + 90 * MINUTE)]);
  const r = await f.run();
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.clear?.outcome, 'failure');
  assert.equal(r.clear?.error?.code, 'WINDOW_CLOSED');
  assert.match(r.clear!.error!.message, /the application was not quiet \(1 session\(s\) stayed: jdoe/);
  assert.match(r.clear!.error!.message, /the next window it fits in opens at 2026-03-11T02:00:00.000Z/);
  // The pipeline allows no override: the hint offers none (one would be refused, OVERRIDE_REFUSED).
  assert.match(
    r.clear!.error!.hint ?? '',
    /; run it then \(no override is allowed: the pipeline.s override-freeze: lists no one\)$/,
  );
  assert.doesNotMatch(r.stdout, /--override-freeze/);
  assert.deepEqual(r.clear?.window?.staying, ['jdoe (ERP Desktop) on eng-prod-01']);
  assert.ok(at(r.clear!.window!.at) <= at('2026-03-10T03:17:00Z'), r.clear!.window!.at);
  assert.match(
    r.summary,
    /\(window: would overrun by \S+; waited \S+; not quiet: jdoe \(ERP Desktop\) on eng-prod-01; next fits at 2026-03-11T02:00:00.000Z\)/,
  );
  assert.equal(f.clears(), 0, 'nothing was sent');
});

test('with a run store, a window that ends before the users are out parks the run until the next window', async (t) => {
  const f = await quietSite(t, '2026-03-10T02:00:00Z', (now) => [session('s-1', 'jdoe', now + 90 * MINUTE)]);
  const r = await f.run('--store', f.storeUrl);
  assert.equal(r.code, 75, r.stdout + r.stderr);
  assert.equal(r.report?.parked?.for, 'window');
  assert.equal(r.report?.parked?.until, '2026-03-11T02:00:00.000Z');
  assert.equal(r.clear?.error?.code, 'WINDOW_PARKED');
  assert.equal(f.clears(), 0);
});
