// The history a run's admission reads is of writes at the place its server is called
// (windows-history-rehearsals.test.ts). A URL whose place holds a secret (url: ${{ secrets.PROD_URL }},
// each environment its own) reads *** masked whatever server it names: keyed by the masked place,
// another environment's writes counted as this server's. Before, three writes of milliseconds at
// another server made a 90m write fit 10 minutes before its 2h window ended, and it was sent.
// Without ENGINECTL_JOURNAL_KEY nothing tells the server (no history: the step's longest:); with the
// key, a run record keeps the key's fingerprint of the place, and the same server's history counts.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';

const MINUTE = 60_000;
const PIPELINE = `version: 1
servers:
  prod: { url: "\${{ secrets.PROD_URL }}", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC }
steps:
  - id: clear
    uses: transaction-log/clear
    server: prod
    longest: 90m
`;

async function world(t: TestContext, key: string | undefined) {
  const clock = simulatedClock(Date.parse('2026-03-10T02:00:00Z'));
  const sites = new Sites({ now: clock.now });
  const server = await serve(sites, { port: 0 });
  t.after(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-history-secret-'));
  mkdirSync(join(dir, 'store'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  let n = 0;
  /** A real run with PROD_URL naming `site`: its exit, its write's window and what it said. */
  const run = async (site: string) => {
    const json = join(dir, `r${n++}.json`);
    const env = { PROD_URL: `${server.url}/sites/${site}`, ...(key ? { ENGINECTL_JOURNAL_KEY: key } : {}) };
    const r = await runCli(['run', file, '--store', `file://${join(dir, 'store')}`, '--report-json', json], {
      clock,
      env,
    });
    const report = JSON.parse(readFileSync(json, 'utf8')) as { steps: { window: { expectedFrom: string } }[] };
    return { code: r.code, expectedFrom: report.steps[0]!.window.expectedFrom, said: `exit ${r.code}\n${r.output}` };
  };
  const sent = (site: string) =>
    sites
      .started()
      .get(site)
      ?.requests.filter((q) => q.applied && q.path.endsWith('/transaction-log/clear')).length ?? 0;
  /** Three writes of milliseconds at `site` early in the window, then the clock at 03:50. */
  const history = async (site: string) => {
    for (let i = 0; i < 3; i++) assert.equal((await run(site)).code, 0);
    await clock.sleep(110 * MINUTE, new AbortController().signal);
  };
  return { run, sent, history };
}

test("without ENGINECTL_JOURNAL_KEY, a server whose URL is a secret has no history: another environment's writes do not make a 90m write fit 10 minutes before its window ends, nor do its own", async (t) => {
  const w = await world(t, undefined);
  await w.history('staging');
  const prod = await w.run('prod');
  assert.equal(w.sent('prod'), 0, `sent at 03:50 on another server's history: ${prod.said}`);
  assert.equal(prod.expectedFrom, 'longest', prod.said);
  const staging = await w.run('staging');
  assert.equal(staging.expectedFrom, 'longest', staging.said);
  assert.equal(w.sent('staging'), 3);
});

test("with ENGINECTL_JOURNAL_KEY, a secret server's history is its own: another environment's writes give none, the same server's do", async (t) => {
  const w = await world(t, 'a-journal-key-of-the-ci-0123');
  await w.history('staging');
  const prod = await w.run('prod');
  assert.equal(w.sent('prod'), 0, `sent at 03:50 on another server's history: ${prod.said}`);
  assert.equal(prod.expectedFrom, 'longest', prod.said);
  const staging = await w.run('staging');
  assert.equal(staging.expectedFrom, 'history', staging.said);
  assert.equal(staging.code, 0, staging.said);
  assert.equal(w.sent('staging'), 4);
});
