// A rollout interrupted between or inside its waves: an analysis the interruption cut short reached
// no verdict, so the journal must not hold it as passed, or a resume carries it ("its analysis
// passed in an earlier run: not repeated") and starts the next wave on monitoring nobody read, or
// a bake nobody waited; and a verdict reached before the interruption (a round failed, a wave past
// its budget) stands: the rollout halted there, and the resume asks the operator.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock, type Clock } from '../../src/app/clock.ts';
import { serve, Sites, type FaultRule } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { until } from '../helpers/timing.ts';
import { FLEET_STEPS } from '../helpers/fleet-steps.ts';

const ALERTS = '/api/monitoring/v1/alerts';
const UPDATE = '/api/devops/v1/update/system';

/** Two sites, a canary wave then the rest, each site's update then its alerts gate; served over HTTP on one simulated clock. */
async function fleet(t: TestContext, analysis: string, faults: FaultRule[] = [], canaries = ['site-001'], budget = 0) {
  const clock = simulatedClock();
  const sites = new Sites({ now: clock.now, faults });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-analysis-cut-'));
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Fleet release
vars:
  sites: [site-001, site-002, site-003]
servers:
  site-001: { url: "${running.url}/sites/site-001", username: admin, password: admin }
  site-002: { url: "${running.url}/sites/site-002", username: admin, password: admin }
  site-003: { url: "${running.url}/sites/site-003", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
rollout:
  over: site
  waves: [[${canaries.join(', ')}], rest]
  max-parallel: 2
  max-failures: ${budget}
  analysis: ${analysis}
${FLEET_STEPS}`,
  );
  const journal = join(dir, 'run.journal.jsonl');
  const json = join(dir, 'report.json');
  const run = (args: string[], options: { signal?: AbortSignal; clock?: Clock } = {}) =>
    runCli(['run', file, '--report-json', json, ...args], { clock: options.clock ?? clock, signal: options.signal });
  const report = () => JSON.parse(readFileSync(json, 'utf8')) as Report;
  /** The outcome the journal's end record of a site's update holds, once it holds one. */
  const ended = (site: string) =>
    (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n') : [])
      .flatMap((line) => {
        try {
          return [
            JSON.parse(line) as { t: string; run?: { id?: string; matrix?: { site?: string }; outcome?: string } },
          ];
        } catch {
          return [];
        }
      })
      .find((r) => r.t === 'end' && r.run?.id === 'update' && r.run.matrix?.site === site)?.run?.outcome;
  const requests = (site: string, path: string) =>
    sites
      .started()
      .get(site)
      ?.requests.filter((r) => r.path.startsWith(path)) ?? [];
  return { clock, sites, journal, run, report, requests, ended };
}

test("interrupted while the analysis's last round reads monitoring: no verdict is recorded as passed, and the resume runs the analysis before wave 2", async (t) => {
  // The canary's alerts answer its own gate and rounds 1 and 2; round 3's read never answers.
  const f = await fleet(t, '{ gates: [alerts], count: 3, interval: 2m }', [
    { method: 'GET', path: `${ALERTS}*`, site: 'site-001', latencyMs: 1, times: 3 },
    { method: 'GET', path: `${ALERTS}*`, site: 'site-001', hang: true },
  ]);
  const ctrl = new AbortController();
  const first = f.run(['--journal', f.journal], { signal: ctrl.signal });
  await until(() => f.requests('site-001', ALERTS).length === 4);
  ctrl.abort();
  const r = await first;
  assert.equal(r.code, 130, r.stdout + r.stderr);
  const cut = f.report().rollout!.waves[0]!;
  assert.notEqual(
    cut.analysis?.passed,
    true,
    `an analysis cut short in its last round is no pass: ${JSON.stringify(cut)}`,
  );
  assert.equal(f.requests('site-002', UPDATE).length, 0, 'wave 2 not started');

  // Now the canary's monitoring fails: the resume must read it before wave 2, and halt.
  f.sites.faults.clear();
  f.sites.faults.add({ method: 'GET', path: `${ALERTS}*`, site: 'site-001', latencyMs: 1, times: 1 });
  f.sites.faults.add({ method: 'GET', path: `${ALERTS}*`, site: 'site-001', status: 500 });
  const again = await f.run(['--resume', f.journal]);
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.doesNotMatch(again.stdout, /its analysis passed in an earlier run/);
  assert.equal(f.report().rollout!.halted?.wave, 1, again.stdout);
  assert.equal(f.requests('site-002', UPDATE).length, 0, 'wave 2 never sent: its analysis did not pass');
});

test('interrupted during the bake after wave 1 (no run store: the bake is waited): the resume bakes again before wave 2', async (t) => {
  const f = await fleet(t, '{ bake: 1h }');
  // The run's clock: the bake's wait is held until the run is interrupted (a bake nobody waits through).
  // The bake's wait is what is left of its hour when it starts (the simulated clock moves with the
  // real one: a millisecond may have passed since the bake began), never the hour exactly: any wait
  // longer than the analysis's rounds (2m at least) is the bake's.
  let baking = false;
  const held: Clock = {
    now: f.clock.now,
    sleep: (ms, signal) =>
      ms < 30 * 60_000
        ? f.clock.sleep(ms, signal)
        : new Promise((_, reject) => {
            baking = true;
            if (signal.aborted) reject(signal.reason as Error);
            signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          }),
  };
  const ctrl = new AbortController();
  const first = f.run(['--journal', f.journal], { signal: ctrl.signal, clock: held });
  await until(() => baking);
  ctrl.abort();
  const r = await first;
  assert.equal(r.code, 130, r.stdout + r.stderr);
  const cut = f.report().rollout!.waves[0]!;
  assert.notEqual(cut.analysis?.passed, true, `a bake cut short is no pass: ${JSON.stringify(cut)}`);

  // The resume on a clock that records its waits: the bake is waited again before wave 2's write.
  const waits: number[] = [];
  const counting: Clock = { now: f.clock.now, sleep: (ms, signal) => (waits.push(ms), f.clock.sleep(ms, signal)) };
  // The bake waits what is left of its hour on the simulated clock, which moves with the real one:
  // the waits and the real time the resume took together cover the hour, on a machine of any speed.
  const began = Date.now();
  const again = await f.run(['--resume', f.journal], { clock: counting });
  const took = Date.now() - began;
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.doesNotMatch(again.stdout, /its analysis passed in an earlier run/);
  assert.ok(
    waits.some((ms) => ms > 30 * 60_000) && waits.reduce((a, b) => a + b, 0) + took >= 3_600_000,
    `the 1h bake waited before wave 2: ${JSON.stringify(waits)} (the resume took ${took} ms)\n${again.stdout}`,
  );
  assert.equal(f.requests('site-002', UPDATE).length, 1, 'wave 2 sent once, after the bake');
});

test('a round that failed before the run was interrupted keeps its verdict: the rollout halted, and the resume asks the operator before wave 2', async (t) => {
  // Round 1: site-001's monitoring fails, then site-002's read never answers and the run is interrupted.
  const f = await fleet(
    t,
    '{ gates: [alerts], count: 3, interval: 2m }',
    [
      { method: 'GET', path: `${ALERTS}*`, site: 'site-001', latencyMs: 1, times: 1 },
      { method: 'GET', path: `${ALERTS}*`, site: 'site-001', status: 500 },
      { method: 'GET', path: `${ALERTS}*`, site: 'site-002', latencyMs: 1, times: 1 },
      { method: 'GET', path: `${ALERTS}*`, site: 'site-002', hang: true },
    ],
    ['site-001', 'site-002'],
  );
  const ctrl = new AbortController();
  const first = f.run(['--journal', f.journal], { signal: ctrl.signal });
  await until(() => f.requests('site-002', ALERTS).length === 2);
  ctrl.abort();
  const r = await first;
  assert.equal(r.code, 130, r.stdout + r.stderr);
  const [wave1] = f.report().rollout!.waves;
  assert.equal(wave1!.analysis?.passed, false);
  assert.match(wave1!.analysis!.text, /^round 1\/3: No critical alert at site-001 .*HTTP 500/, JSON.stringify(wave1));
  assert.equal(f.report().rollout!.halted?.wave, 1, 'the failed analysis halted the rollout');

  // Monitoring is healthy again: the resume must not run the analysis again and go on as if it never failed.
  f.sites.faults.clear();
  const again = await f.run(['--resume', f.journal]);
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, /RESUME_HALTED/);
  assert.equal(f.requests('site-003', UPDATE).length, 0, 'wave 2 never sent');
});

test('a wave past its failure budget when the run is interrupted (another site of it in flight) halted: the resume asks the operator before wave 2', async (t) => {
  // site-001's update is refused (budget 0 spent), site-002's never answers; the run is interrupted.
  const f = await fleet(
    t,
    '{ gates: [alerts], count: 1, interval: 2m }',
    [
      { method: 'POST', path: UPDATE, site: 'site-001', status: 400 },
      { method: 'POST', path: UPDATE, site: 'site-002', hang: true },
    ],
    ['site-001', 'site-002'],
  );
  const ctrl = new AbortController();
  const first = f.run(['--journal', f.journal], { signal: ctrl.signal });
  // site-001's failure on the journal (its end record), site-002's update at the server.
  await until(() => f.ended('site-001') === 'failure' && f.requests('site-002', UPDATE).length === 1);
  ctrl.abort();
  const r = await first;
  assert.equal(r.code, 130, r.stdout + r.stderr);
  assert.equal(f.report().rollout!.halted?.wave, 1, JSON.stringify(f.report().rollout));

  f.sites.faults.clear();
  const again = await f.run(['--resume', f.journal, '--in-doubt', 'skip']);
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, /RESUME_HALTED/);
  assert.equal(f.requests('site-001', UPDATE).length, 1, 'the refused update not sent again unasked');
  assert.equal(f.requests('site-003', UPDATE).length, 0, 'wave 2 never sent');
});

test('a site the interruption cut is no failure of its own: within the budget without it, the wave is not halted', async (t) => {
  // max-failures 1: site-001's update refused, site-002's cut by the interruption (in doubt, not failed).
  const f = await fleet(
    t,
    '{ gates: [alerts], count: 1, interval: 2m }',
    [
      { method: 'POST', path: UPDATE, site: 'site-001', status: 400 },
      { method: 'POST', path: UPDATE, site: 'site-002', hang: true },
    ],
    ['site-001', 'site-002'],
    1,
  );
  const ctrl = new AbortController();
  const first = f.run(['--journal', f.journal], { signal: ctrl.signal });
  // site-001's failure on the journal (its end record), site-002's update at the server.
  await until(() => f.ended('site-001') === 'failure' && f.requests('site-002', UPDATE).length === 1);
  ctrl.abort();
  const r = await first;
  assert.equal(r.code, 130, r.stdout + r.stderr);
  assert.equal(f.report().rollout!.halted, null, JSON.stringify(f.report().rollout));
  assert.equal(f.report().rollout!.waves[0]!.outcome, 'cancelled');
});
