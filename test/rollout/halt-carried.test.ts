// A value a resume carries (done in an earlier run) is shown as that run left it, whatever stops
// this run before it comes to it: a halt past the wave's budget does not make a site rolled out
// earlier read "not started" in the reports, nor its end in the journal.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';
import { until } from '../helpers/timing.ts';
import { FLEET_STEPS } from '../helpers/fleet-steps.ts';

const UPDATE = '/api/devops/v1/update/system';

const pipeline = (url: string, maxParallel: number, database = 'PROD') => `version: 1
name: Fleet release
vars:
  sites: [site-001, site-002, site-003]
servers:
  site-001: { url: "${url}/sites/site-001", username: admin, password: admin }
  site-002: { url: "${url}/sites/site-002", username: admin, password: admin }
  site-003: { url: "${url}/sites/site-003", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: ${database}, token: prod-token }
rollout:
  over: site
  waves: [[site-001, site-002, site-003]]
  max-parallel: ${maxParallel}
  max-failures: 1
${FLEET_STEPS}`;

test('a resume that halts past the budget before a site it carries shows that site as rolled out earlier, not "not started"', async (t) => {
  const clock = simulatedClock();
  // Run 1: site-001's update never answers, site-002's is refused (the budget of 1 spent), site-003 is rolled out.
  const sites = new Sites({
    now: clock.now,
    faults: [
      { method: 'POST', path: UPDATE, site: 'site-001', hang: true },
      { method: 'POST', path: UPDATE, site: 'site-002', status: 400 },
    ],
  });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-halt-carried-'));
  const file = join(dir, 'fleet.yml');
  const journal = join(dir, 'run.journal.jsonl');
  const json = join(dir, 'report.json');
  writeFileSync(file, pipeline(running.url, 2));
  const requests = (site: string, path: string) =>
    sites
      .started()
      .get(site)
      ?.requests.filter((r) => r.path.startsWith(path)) ?? [];
  const ends = () =>
    readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"t":"end"'))
      .map((line) => JSON.parse(line) as { run: { id: string; matrix: { site: string }; outcome: string } });

  const ctrl = new AbortController();
  const first = runCli(['run', file, '--journal', journal, '--report-json', json], { clock, signal: ctrl.signal });
  await until(() => {
    try {
      return ends().some((e) => e.run.id === 'alerts' && e.run.matrix.site === 'site-003');
    } catch {
      return false;
    }
  });
  ctrl.abort();
  const r = await first;
  assert.equal(r.code, 130, r.stdout + r.stderr);
  assert.equal(requests('site-003', UPDATE).length, 1);

  // The operator resumes one site at a time (--force: the file changed), sending site-001's write
  // again; site-001 and site-002 are refused, the wave is past its budget before site-003.
  writeFileSync(file, pipeline(running.url, 1));
  sites.faults.clear();
  sites.faults.add({ method: 'POST', path: UPDATE, site: 'site-001', status: 400 });
  sites.faults.add({ method: 'POST', path: UPDATE, site: 'site-002', status: 400 });
  const again = await runCli(
    ['run', file, '--resume', journal, '--in-doubt', 'retry', '--force', '--report-json', json],
    { clock },
  );
  assert.equal(again.code, 1, again.stdout + again.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.equal(report.rollout!.halted?.wave, 1, again.stdout);
  const third = report.steps.filter((s) => s.matrix?.site === 'site-003' && s.round === null);
  // Its update was rolled out by the first run; its gate (a read, run again by every resume) was not run by this one.
  assert.deepEqual(
    third.map((s) => [s.id, s.outcome, s.resume, s.error?.code ?? null]),
    [
      ['update', 'success', 'earlier-run', null],
      ['alerts', 'cancelled', 'resumed', 'ROLLOUT_HALTED'],
    ],
    `site-003 was rolled out by the first run: ${again.stdout}`,
  );
  assert.match(again.stdout, /✔ \[1\/2\] Update site-003 {2}done in an earlier run/);
  assert.equal(requests('site-003', UPDATE).length, 1, 'site-003 not sent again');
  // The journal's last word on site-003's update is still its success: a later resume carries it again.
  const last = ends().filter((e) => e.run.id === 'update' && e.run.matrix.site === 'site-003');
  assert.equal(last.at(-1)?.run.outcome, 'success');
});

test('a resume with --force whose halt comes before a site whose update changed shows it not started, its earlier end kept', async (t) => {
  const clock = simulatedClock();
  // Run 1 as above: site-003 is rolled out (to PROD), site-001's update left in doubt.
  const sites = new Sites({
    now: clock.now,
    faults: [
      { method: 'POST', path: UPDATE, site: 'site-001', hang: true },
      { method: 'POST', path: UPDATE, site: 'site-002', status: 400 },
    ],
  });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-halt-changed-'));
  const file = join(dir, 'fleet.yml');
  const journal = join(dir, 'run.journal.jsonl');
  const json = join(dir, 'report.json');
  writeFileSync(file, pipeline(running.url, 2));
  const ends = () =>
    readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"t":"end"'))
      .map((line) => JSON.parse(line) as { run: { id: string; matrix: { site: string }; outcome: string } });
  const ctrl = new AbortController();
  const first = runCli(['run', file, '--journal', journal], { clock, signal: ctrl.signal });
  await until(() => {
    try {
      return ends().some((e) => e.run.id === 'alerts' && e.run.matrix.site === 'site-003');
    } catch {
      return false;
    }
  });
  ctrl.abort();
  assert.equal((await first).code, 130);

  // The operator changes the update's target (PROD2) and resumes with --force: every update's
  // inputs changed, so none is carried; the wave is past its budget before site-003.
  writeFileSync(file, pipeline(running.url, 1, 'PROD2'));
  sites.faults.clear();
  sites.faults.add({ method: 'POST', path: UPDATE, site: 'site-001', status: 400 });
  sites.faults.add({ method: 'POST', path: UPDATE, site: 'site-002', status: 400 });
  const again = await runCli(
    ['run', file, '--resume', journal, '--in-doubt', 'retry', '--force', '--report-json', json],
    { clock },
  );
  assert.equal(again.code, 1, again.stdout + again.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  assert.equal(report.rollout!.halted?.wave, 1, again.stdout);
  const update = report.steps.find((s) => s.id === 'update' && s.matrix?.site === 'site-003')!;
  // Its update to PROD2 was never sent: not "done in an earlier run" (that run updated PROD).
  assert.deepEqual(
    [update.outcome, update.resume, update.error?.code ?? null],
    ['cancelled', 'resumed', 'ROLLOUT_HALTED'],
    again.stdout,
  );
  assert.doesNotMatch(again.stdout, /Update site-003 {2}done in an earlier run/);
  // The journal's last word on it is still the first run's success (with PROD's inputs): a
  // resume with the target back as it was carries it; one with PROD2 sends it.
  const last = ends().filter((e) => e.run.id === 'update' && e.run.matrix.site === 'site-003');
  assert.equal(last.length, 1);
  assert.equal(last[0]!.run.outcome, 'success');
});
