// One site whose window opens 02:00-06:00 UTC each night, a short write and a long one, a run
// store in a temporary directory, and the runs of its pipeline on one simulated clock.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/index.ts';
import { runCli } from '../helpers/cli.ts';

/** One site, its window 02:00-06:00 UTC each night; a short write and a long one (`names`: as named). */
export async function nightly(t: TestContext, start: string, names = { short: 'short', long: 'long' }) {
  const clock = simulatedClock(Date.parse(start));
  const sites = new Sites({ now: clock.now });
  const running = await serve(sites, { port: 0 });
  t.after(() => running.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-window-park-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'nightly.yml');
  writeFileSync(
    file,
    `version: 1
servers:
  site: { url: "${running.url}/sites/site-001", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 4h, zone: UTC }
steps:
  - id: alerts
    uses: monitoring/alerts
    server: site
  - id: short
    name: ${names.short}
    uses: transaction-log/clear
    server: site
    expected: 10m
  - id: long
    name: ${names.long}
    uses: transaction-log/clear
    server: site
    expected: 2h
  - id: after
    uses: monitoring/alerts
    server: site
`,
  );
  let n = 0;
  const cli = async (args: string[]) => {
    const json = join(dir, `report-${++n}.json`);
    const r = await runCli(['run', file, '--report-json', json, ...args], { clock });
    return { ...r, report: existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Report) : undefined };
  };
  const run = (...args: string[]) => cli(['--store', `file://${store}`, ...args]);
  const clears = () =>
    sites
      .started()
      .get('site-001')
      ?.requests.filter((r) => r.applied && r.path.endsWith('/transaction-log/clear')).length ?? 0;
  return { clock, run, cli, clears, storeUrl: `file://${store}`, sites, file };
}
