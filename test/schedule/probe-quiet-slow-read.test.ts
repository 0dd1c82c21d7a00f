// Probe: a window with quiet: admits a write "only while no application session is on the
// server's Engines" and judges it again at each read: "once it would no longer end inside the
// window ... the wait ends and the write is not started" (pipeline-format.md, When the users are
// out). The verdict the write goes out on is the one from before the sessions were read: a read
// that takes 10 minutes (a slow monitoring API) and finds the application quiet starts the write
// 10 minutes later on that old verdict, unjudged, though it then needs 1h06m and the window ends
// in 1h. Here at 02:50 (fits, ending 03:56), the read ends at 03:00, and the write is sent at 03:00
// to end at 04:06, six minutes past its window.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { gatewayInFront } from '../helpers/gateway.ts';
import { runCli } from '../helpers/cli.ts';

const MINUTE = 60_000;
const never = new AbortController().signal;

test('a write admitted after a slow sessions read is judged at the time it would start: not sent at 03:00 needing 1h06m into a window ending 04:00', async (t) => {
  const clock = simulatedClock(Date.parse('2026-03-10T02:50:00Z'));
  const sites = new Sites({ now: clock.now });
  const server = await serve(sites, { port: 0 });
  t.after(() => server.close());
  const sentAt: string[] = [];
  // The monitoring API answers the sessions 10 minutes after it is asked (on the clock the run reads).
  const front = await gatewayInFront(
    t,
    server.url,
    () => undefined,
    async (method, path) => {
      if (path.endsWith('/api/monitoring/v1/sessions')) await clock.sleep(10 * MINUTE, never);
      if (method === 'POST' && path.endsWith('/transaction-log/clear'))
        sentAt.push(new Date(clock.now()).toISOString());
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-quiet-slow-read-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
servers:
  prod: { url: "${front}/sites/prod", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC, quiet: { except: [ERP Desktop] } }
steps:
  - { id: clear, uses: transaction-log/clear, server: prod, expected: 60m }
`,
  );
  const json = join(dir, 'r.json');
  const r = await runCli(['run', file, '--report-json', json], { clock });
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;

  const window = (JSON.parse(readFileSync(json, 'utf8')) as { steps: { window: Record<string, unknown> }[] }).steps[0]!
    .window;

  assert.deepEqual(
    sentAt,
    [],
    `sent needing 1h06m into a window ending 04:00 (its verdict ${String(window.verdict)} at ${String(window.at)}); ${said}`,
  );
  assert.equal(window.verdict, 'overrun', said);
  assert.equal(r.code, 1, said);
});
