// A value a resume carries (done in an earlier run) is shown as that run left it when the resume
// is interrupted before it comes to it: a site rolled out earlier does not read "cancelled" in the
// reports, in a rollout's waves or in a plain matrix step, and the journal keeps its end.
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

const pipeline = (
  url: string,
  maxParallel: number,
  rollout: boolean,
  waves = '[[site-001, site-002, site-003]]',
) => `version: 1
name: Fleet release
vars:
  sites: [site-001, site-002, site-003]
servers:
  site-001: { url: "${url}/sites/site-001", username: admin, password: admin }
  site-002: { url: "${url}/sites/site-002", username: admin, password: admin }
  site-003: { url: "${url}/sites/site-003", username: admin, password: admin }
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
${
  rollout
    ? `rollout:
  over: site
  waves: ${waves}
  max-parallel: ${maxParallel}
`
    : ''
}${rollout ? FLEET_STEPS : FLEET_STEPS.replace(/(uses: update\/system\n)/, `$1    max-parallel: ${maxParallel}\n`)}`;

// In a rollout, the sites rolled out earlier are in the interrupted wave, or (the operator moved
// them with --force) in a wave after it.
const cases = [
  { name: 'a rollout, in its wave', rollout: true, before: undefined, after: undefined },
  {
    name: 'a rollout, in a later wave',
    rollout: true,
    before: '[[site-002, site-003], [site-001]]',
    after: '[[site-001], [site-002, site-003]]',
  },
  { name: 'a matrix step', rollout: false, before: undefined, after: undefined },
];

for (const { name, rollout, before, after } of cases)
  test(`a resume interrupted before a site it carries shows that site as rolled out earlier, not "cancelled" (${name})`, async (t) => {
    const clock = simulatedClock();
    // Run 1: site-001's update never answers; site-002 and site-003 are rolled out; the run is interrupted.
    const sites = new Sites({
      now: clock.now,
      faults: [{ method: 'POST', path: UPDATE, site: 'site-001', hang: true }],
    });
    const running = await serve(sites, { port: 0 });
    t.after(() => running.close());
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-interrupt-carried-'));
    const file = join(dir, 'fleet.yml');
    const journal = join(dir, 'run.journal.jsonl');
    const json = join(dir, 'report.json');
    writeFileSync(file, pipeline(running.url, 3, rollout, before));
    const sent = (site: string) =>
      sites
        .started()
        .get(site)
        ?.requests.filter((r) => r.method === 'POST' && r.path.startsWith(UPDATE)).length ?? 0;
    const ends = () =>
      readFileSync(journal, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"t":"end"'))
        .map((line) => JSON.parse(line) as { run: { id: string; matrix: { site: string }; outcome: string } });
    const ended = (id: string, site: string) => {
      try {
        return ends().some((e) => e.run.id === id && e.run.matrix.site === site);
      } catch {
        return false;
      }
    };

    const ctrl = new AbortController();
    const first = runCli(['run', file, '--journal', journal], { clock, signal: ctrl.signal });
    await until(() => ended('update', 'site-002') && ended('update', 'site-003') && sent('site-001') === 1);
    ctrl.abort();
    assert.equal((await first).code, 130);

    // The resume sends site-001's write again, one site at a time (--force: the file changed), and
    // is interrupted while it hangs again: site-002 and site-003 are never come to.
    writeFileSync(file, pipeline(running.url, 1, rollout, after));
    const ctrl2 = new AbortController();
    const again = runCli(['run', file, '--resume', journal, '--in-doubt', 'retry', '--force', '--report-json', json], {
      clock,
      signal: ctrl2.signal,
    });
    await until(() => sent('site-001') === 2);
    ctrl2.abort();
    const r = await again;
    assert.equal(r.code, 130, r.stdout + r.stderr);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    const updates = report.steps.filter((s) => s.id === 'update' && s.round === null);
    assert.deepEqual(
      updates.map((s) => [s.matrix?.site, s.outcome, s.resume, s.error?.code ?? null]),
      [
        ['site-001', 'cancelled', 'resumed', 'IN_DOUBT'],
        ['site-002', 'success', 'earlier-run', null],
        ['site-003', 'success', 'earlier-run', null],
      ],
      `site-002 and site-003 were rolled out by the first run: ${r.stdout}`,
    );
    assert.match(r.stdout, /✔ \[1\/2\] Update site-003 {2}done in an earlier run/);
    assert.equal(sent('site-003'), 1, 'site-003 not sent again');
    const last = ends().filter((e) => e.run.id === 'update' && e.run.matrix.site === 'site-003');
    assert.equal(last.at(-1)?.run.outcome, 'success');
  });
