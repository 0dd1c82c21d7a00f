// Probe: "Before each write instance starts, enginectl checks that its expected end fits"
// (pipeline-format.md, Windows and freezes). A write verify can read back takes a snapshot of its
// target first (classes/create: the class's entities just before the call); that read comes after
// the admission, and the write leaves when it ends, unjudged: a snapshot read that takes 10
// minutes (a slow API, a large class; with a journal, which the snapshot is kept in) sends at 03:00 a write needing 1h06m into a window ending
// at 04:00, admitted at 02:50.
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

test('a write whose snapshot read before it takes 10 minutes is judged at the time it would leave: not sent at 03:00 needing 1h06m into a window ending 04:00', async (t) => {
  const clock = simulatedClock(Date.parse('2026-03-10T02:50:00Z'));
  const sites = new Sites({ now: clock.now });
  const server = await serve(sites, { port: 0 });
  t.after(() => server.close());
  const sent: string[] = [];
  const seen: string[] = [];
  // The API answers the first read of the class 10 minutes after it is asked (on the clock the run reads).
  const front = await gatewayInFront(
    t,
    server.url,
    () => undefined,
    async (method, path) => {
      seen.push(`${new Date(clock.now()).toISOString()} ${method} ${path}`);
      if (method === 'GET' && seen.length === 1) await clock.sleep(10 * MINUTE, never);
      if (method === 'POST') sent.push(`${new Date(clock.now()).toISOString()} ${path}`);
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-snapshot-slow-read-'));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    `version: 1
servers:
  prod: { url: "${front}/sites/prod", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC }
steps:
  - id: create
    uses: classes/create
    server: prod
    expected: 60m
    with: { class: 30, fields: { iname: REL-1, ioutcome: started } }
`,
  );
  const json = join(dir, 'r.json');
  const r = await runCli(['run', file, '--journal', join(dir, 'j.jsonl'), '--report-json', json], { clock });
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}\n${seen.join('\n')}`;
  const window = (JSON.parse(readFileSync(json, 'utf8')) as { steps: { window: Record<string, unknown> }[] }).steps[0]!
    .window;
  assert.deepEqual(
    sent,
    [],
    `sent needing 1h06m into a window ending 04:00 (its verdict ${String(window.verdict)} at ${String(window.at)}); ${said}`,
  );
});
