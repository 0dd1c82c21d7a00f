// The history a real run's admission reads (the p95 of the run store's latest runs' write
// durations, pipeline-format.md, Windows and freezes) is of writes like its own: at the place its
// server is called, on a real server. Rehearsals under --emulator (the docs' way to try a night's
// window: run --emulator --clock TIME with the store the real run uses) take milliseconds, and
// another pipeline's `prod` is another server: neither says how long this write takes. Before,
// both counted (durations were keyed by step type and server name alone, and nothing in a journal
// told a rehearsal from a real run): their milliseconds outranked the step's longest: 90m, and a
// write needing 99 minutes was sent 10 minutes before its 2h window ended. A rehearsal's journal
// given with --history is left out too, and said; a rehearsal still reads every run, as before.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { simulatedClock } from '../../src/app/clock.ts';
import { serve, Sites } from '../../src/emulator/index.ts';
import { runCli } from '../helpers/cli.ts';

const MINUTE = 60_000;

/** A pipeline whose one write, at the server `url`, takes up to 90 minutes, in a 2h window from 02:00Z. */
const pipeline = (url: string) => `version: 1
servers:
  prod: { url: "${url}", username: admin, password: admin }
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: UTC }
steps:
  - id: clear
    uses: transaction-log/clear
    server: prod
    longest: 90m
`;

interface Window {
  verdict: string;
  expectedMs: number;
  expectedFrom: string;
  windowEnd?: string;
}

async function world(t: TestContext, start: string) {
  const clock = simulatedClock(Date.parse(start));
  const sites = new Sites({ now: clock.now });
  const server = await serve(sites, { port: 0 });
  t.after(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-history-rehearsals-'));
  mkdirSync(join(dir, 'store'));
  const store = `file://${join(dir, 'store')}`;
  let files = 0;
  const file = (url: string) => {
    const path = join(dir, `p${files++}.yml`);
    writeFileSync(path, pipeline(url));
    return path;
  };
  /** A real run (no --emulator) at the clock's time: its exit, its write's window, and what it said. */
  const run = async (path: string, extra: string[] = []) => {
    const json = join(dir, `r${files++}.json`);
    const r = await runCli(['run', path, '--store', store, '--report-json', json, ...extra], { clock });
    const report = JSON.parse(readFileSync(json, 'utf8')) as { steps: { window: Window }[] };
    return { ...r, window: report.steps[0]!.window, said: `exit ${r.code}\n${r.stdout}${r.stderr}` };
  };
  /** The writes a site was sent. */
  const sent = (site: string) =>
    sites
      .started()
      .get(site)
      ?.requests.filter((q) => q.applied && q.path.endsWith('/transaction-log/clear')).length ?? 0;
  return { clock, dir, url: server.url, store, file, run, sent };
}

test('emulator rehearsals in the run store do not make a 90m write fit 10 minutes before its window ends', async (t) => {
  const w = await world(t, '2026-03-10T03:50:00Z');
  const file = w.file(`${w.url}/sites/prod`);
  // The operator tries the night's window three times on the embedded emulator, with the store the real run uses.
  for (let i = 0; i < 3; i++) {
    const r = await runCli(['run', file, '--emulator', '--clock', '2026-03-10T02:00:00Z', '--store', w.store]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  // The real run, 10 minutes before the window ends: its write needs 90m + 10%.
  const r = await w.run(file);
  assert.equal(
    w.sent('prod'),
    0,
    `sent at 03:50 into a window ending at ${r.window.windowEnd}: expected ${r.window.expectedMs} ms from ${r.window.expectedFrom} (the emulator rehearsals), not its longest: 90m; ${r.said}`,
  );
  assert.equal(r.window.expectedFrom, 'longest', r.said);
  assert.equal(r.window.verdict, 'overrun', r.said);
});

test("another pipeline's server of the same name elsewhere gives no history; the same server, spelt otherwise, does", async (t) => {
  const w = await world(t, '2026-03-10T02:00:00Z');
  const never = new AbortController().signal;
  // Three real runs early in the window of a pipeline whose `prod` is another site: each write took milliseconds.
  const other = w.file(`${w.url}/sites/other`);
  for (let i = 0; i < 3; i++) {
    const r = await w.run(other);
    assert.equal(r.code, 0, r.said);
  }
  assert.equal(w.sent('other'), 3);
  await w.clock.sleep(110 * MINUTE, never);
  // 03:50: this pipeline's `prod` has no history of its own; its longest: 90m does not fit the 10 minutes left.
  const r = await w.run(w.file(`${w.url}/sites/prod`));
  assert.equal(w.sent('prod'), 0, `sent at 03:50 on the history of another server: ${r.said}`);
  assert.equal(r.window.expectedFrom, 'longest', r.said);
  // The other site's own history, its URL spelt with a trailing slash (its client calls the same place): the write fits.
  const again = await w.run(w.file(`${w.url}/sites/other/`));
  assert.equal(again.window.expectedFrom, 'history', again.said);
  assert.equal(again.code, 0, again.said);
  assert.equal(w.sent('other'), 4);
});

test('a rehearsal journal given to a real run with --history is not counted, and the run says so; a rehearsal still reads it', async (t) => {
  const w = await world(t, '2026-03-10T03:50:00Z');
  const file = w.file(`${w.url}/sites/prod`);
  const history: string[] = [];
  for (let i = 0; i < 3; i++) {
    const journal = join(w.dir, `rehearsal${i}.jsonl`);
    const r = await runCli(['run', file, '--emulator', '--clock', '2026-03-10T02:00:00Z', '--journal', journal]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    history.push('--history', journal);
  }
  const r = await w.run(file, history);
  assert.equal(w.sent('prod'), 0, `sent at 03:50 on the rehearsals' milliseconds: ${r.said}`);
  assert.equal(r.window.expectedFrom, 'longest', r.said);
  assert.match(
    r.stderr,
    /warning: run --history \S+rehearsal0\.jsonl: its runs against the embedded emulator \(run --emulator\) are not counted/,
  );
  // Another rehearsal at 03:50 reads them, as before: the emulator's milliseconds fit.
  const rehearsal = await runCli(['run', file, '--emulator', '--clock', '2026-03-10T03:50:00Z', ...history]);
  assert.equal(rehearsal.code, 0, rehearsal.stdout + rehearsal.stderr);
  assert.doesNotMatch(rehearsal.stderr, /not counted/);
  // Its run record says where it ran; a journal of an earlier enginectl (no such field) is read as one against the servers.
  assert.match(readFileSync(history[1]!, 'utf8'), /^\{"t":"run",[^\n]*"emulator":true/);
});
