// Probe: a write's p95 is read from "at least 3" earlier durations (pipeline-format.md, Windows and
// freezes); fewer are no evidence, and its longest: decides. A run with a run store and --journal F
// keeps its journal in both; F given back with --history to a run of the same store counts that
// one run's writes twice, from the store and from the file: two writes of milliseconds read as four
// durations, outrank the step's longest: 90m, and the write is sent 10 minutes before its 2h window
// ends (the same run without --history refuses it).
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

const pipeline = (url: string, ids: string[]) => `version: 1
servers:
  prod: { url: "${url}", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC }
steps:
${ids.map((id) => `  - { id: ${id}, uses: transaction-log/clear, server: prod, longest: 90m }\n`).join('')}`;

test("one run's two writes, in the store and in its --journal file given with --history, are two durations, not four: the longest: 90m write is not sent 10 minutes before its window ends", async (t) => {
  const clock = simulatedClock(Date.parse('2026-03-10T02:00:00Z'));
  const sites = new Sites({ now: clock.now });
  const server = await serve(sites, { port: 0 });
  t.after(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-history-twice-'));
  mkdirSync(join(dir, 'store'));
  const store = `file://${join(dir, 'store')}`;
  const url = `${server.url}/sites/prod`;
  const two = join(dir, 'two.yml');
  writeFileSync(two, pipeline(url, ['first', 'second']));
  const one = join(dir, 'one.yml');
  writeFileSync(one, pipeline(url, ['clear']));
  const sent = () =>
    sites
      .started()
      .get('prod')
      ?.requests.filter((q) => q.applied && q.path.endsWith('/transaction-log/clear')).length ?? 0;
  // A real run early in the window: two writes, in the store and in the local copy it names.
  const journal = join(dir, 'early.jsonl');
  const early = await runCli(['run', two, '--store', store, '--journal', journal], { clock });
  assert.equal(early.code, 0, early.stdout + early.stderr);
  assert.equal(sent(), 2);
  // 03:50: ten minutes left; two earlier writes are no p95, the step's longest: 90m + 10% is the need.
  await clock.sleep(110 * MINUTE, never);
  const alone = await runCli(['run', one, '--store', store], { clock });
  assert.equal(
    alone.code,
    75,
    `the store alone gives two durations: not sent, parked for the next window\n${alone.stdout}${alone.stderr}`,
  );
  assert.equal(sent(), 2);
  const json = join(dir, 'r.json');
  const r = await runCli(['run', one, '--store', store, '--history', journal, '--report-json', json], { clock });
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  const window = (JSON.parse(readFileSync(json, 'utf8')) as { steps: { window: Record<string, unknown> }[] }).steps[0]!
    .window;
  assert.equal(
    sent(),
    2,
    `sent at 03:50 into a window ending 04:00: expected ${String(window.expectedMs)} ms from ${String(window.expectedFrom)}; ${said}`,
  );
  assert.equal(window.expectedFrom, 'longest', said);
});
