// A resume whose rollout parks (a write of it waits for its window) after the steps that follow the
// rollout had ended once: a step among them whose write was in doubt, and which the operator
// decided (--in-doubt skip: it was applied), keeps that end and that decision. Were it written "not
// started: the rollout parked", the continue would send it again.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/index.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { runCli } from '../helpers/cli.ts';
import { PARKED, runIdOf } from './helpers.ts';

const never = new AbortController().signal;

test("a resume that parks in its rollout keeps a later step's decided doubt: the continue never sends it again", async (t) => {
  // 05:00Z, in the night's window (02:00-06:00) with room for a 10m write.
  const clock = simulatedClock(Date.parse('2026-03-10T05:00:00Z'));
  const sites = new Sites({ now: clock.now });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  // site-002's clear is refused (the API's 400) in the first run: within the wave's budget.
  sites.faults.add({
    method: 'POST',
    path: '/api/devops/v1/transaction-log/clear',
    site: 'site-002',
    status: 400,
    times: 1,
  });
  let cut = true;
  const front = await gatewayInFront(t, running.url, (method, path) => {
    // The final clear, after the rollout: applied, its answer a gateway's 504 (in doubt).
    if (cut && method === 'POST' && path.includes('/sites/final/') && path.endsWith('/transaction-log/clear'))
      return 504;
    return undefined;
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-post-rollout-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'fleet.yml');
  writeFileSync(
    file,
    `version: 1
name: Fleet release
vars:
  sites: [site-001, site-002]
servers:
  site-001: { url: "${front}/sites/site-001", username: admin, password: admin }
  site-002: { url: "${front}/sites/site-002", username: admin, password: admin }
  final: { url: "${front}/sites/final", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 4h, zone: UTC }
rollout:
  over: site
  waves: [[site-001], [site-002]]
  max-failures: 1
steps:
  - id: clear
    uses: transaction-log/clear
    matrix: { site: "\${{ vars.sites }}" }
    server: \${{ matrix.site }}
    expected: 10m
  - id: final
    uses: transaction-log/clear
    server: final
    expected: 10m
`,
  );
  let n = 0;
  const run = async (...args: string[]) => {
    const json = join(dir, `report-${++n}.json`);
    const r = await runCli(['run', file, '--store', `file://${store}`, '--report-json', json, ...args], { clock });
    return { ...r, report: existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Report) : undefined };
  };
  const finals = () =>
    sites
      .started()
      .get('final')
      ?.requests.filter((r) => r.applied && r.path.endsWith('/transaction-log/clear')).length ?? 0;

  const first = await run();
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  assert.ok(first.report!.steps.find((s) => s.id === 'final')!.inDoubt, 'the final clear is in doubt');
  assert.equal(finals(), 1);
  cut = false;
  // 05:55Z: site-002's clear, run again, no longer fits before 06:00: the resume parks for its window.
  await clock.sleep(Date.parse('2026-03-10T05:55:00Z') - clock.now(), never);
  const resumed = await run('--resume', id, '--in-doubt', 'skip');
  assert.equal(resumed.code, PARKED, resumed.stdout + resumed.stderr);
  const final = resumed.report!.steps.find((s) => s.id === 'final')!;
  assert.equal(final.decision?.decision, 'skip', JSON.stringify(final));
  // The next night: the continue rolls site-002 out, and never sends the final clear again.
  await clock.sleep(Date.parse('2026-03-11T02:05:00Z') - clock.now(), never);
  const done = await run('--continue', id);
  assert.notEqual(done.code, PARKED, done.stdout + done.stderr);
  assert.equal(finals(), 1, 'the clear the operator said was applied is not sent again');
});
