// Probe: a write's expected duration is the p95 of "that step type's earlier successful durations
// at the same server" (pipeline-format.md, Windows and freezes) — of its writes: reads are never
// admitted, and a GET takes milliseconds. But api/request is a read (GET) and a write (POST) under
// one step type, and the durations the history keeps are every successful instance's, reads too:
// three GETs of an earlier run at the same server outrank a POST's longest: 90m, and that write is
// sent 10 minutes before its 2h window ends.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';

const MINUTE = 60_000;
const never = new AbortController().signal;

const head = (url: string) => `version: 1
servers:
  prod: { url: "${url}", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC }
steps:
`;

test("an earlier run's GET api/request reads give a POST api/request write no history: its longest: 90m is not sent 10 minutes before its window ends", async (t) => {
  const clock = simulatedClock(Date.parse('2026-03-10T02:00:00Z'));
  const sites = new Sites({ now: clock.now });
  const server = await serve(sites, { port: 0 });
  t.after(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-read-history-'));
  mkdirSync(join(dir, 'store'));
  const store = `file://${join(dir, 'store')}`;
  const url = `${server.url}/sites/prod`;
  const reads = join(dir, 'reads.yml');
  writeFileSync(
    reads,
    `${head(url)}${[1, 2, 3]
      .map(
        (i) =>
          `  - { id: read${i}, uses: api/request, server: prod, with: { method: GET, path: /api/monitoring/v1/engines } }\n`,
      )
      .join('')}`,
  );
  const write = join(dir, 'write.yml');
  writeFileSync(
    write,
    `${head(url)}  - id: clear
    uses: api/request
    server: prod
    longest: 90m
    with: { method: POST, path: /api/devops/v1/transaction-log/clear }
`,
  );
  // A real run (no --emulator) early in the window: three reads, each of milliseconds.
  const first = await runCli(['run', reads, '--store', store], { clock });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  // 03:50: ten minutes left; the write's own bound says it needs 90m + 10%.
  await clock.sleep(110 * MINUTE, never);
  const json = join(dir, 'r.json');
  const r = await runCli(['run', write, '--store', store, '--report-json', json], { clock });
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  const window = (JSON.parse(readFileSync(json, 'utf8')) as { steps: { window: Record<string, unknown> }[] }).steps[0]!
    .window;
  const sent =
    sites
      .started()
      .get('prod')
      ?.requests.filter((q) => q.applied && q.path.endsWith('/transaction-log/clear')).length ?? 0;
  assert.equal(
    sent,
    0,
    `sent at 03:50 into a window ending 04:00: expected ${String(window.expectedMs)} ms from ${String(window.expectedFrom)} (three GETs), not its longest: 90m; ${said}`,
  );
  assert.equal(window.expectedFrom, 'longest', said);
});
