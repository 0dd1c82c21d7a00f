// `enginectl report JOURNAL` of a journal a live run still writes: its call in flight is not in
// doubt, and the steps after it are still to come. Before, report rendered it as a run that had
// ended ("the run ended after sending POST …: the server may have applied it", "not started: the
// run ended before it", the pipeline "cancelled") and wrote that into every report file asked for.
// It is refused as verify is (JOURNAL_LOCKED, exit 2, nothing written) while the run holds the
// journal's lock; a lock whose run is gone is read past, said.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';

const PIPELINE = `version: 1
name: Still running
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: clear
    uses: transaction-log/clear
`;

test("report of a journal a live run writes is refused (JOURNAL_LOCKED), never rendered as a run that ended; a dead run's lock is read past", async (t) => {
  const { url, emulator } = await startEmulator(t, {
    faults: [{ method: 'POST', path: '/api/devops/v1/update/vfs', hang: true, times: 1 }],
  });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-report-live-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const stop = new AbortController();
  const running = runCli(['run', file, '--journal', journal], { env, signal: stop.signal });
  await until(() => emulator.inFlight === 1);

  const json = join(dir, 'r.json');
  const live = await runCli(['report', journal, '--report-json', json]);
  assert.equal(live.code, 2, live.stdout + live.stderr);
  assert.doesNotMatch(live.stdout, /the run ended|not started|cancelled/, live.stdout);
  assert.match(live.stderr, /is in use by process \d+ .*the run that writes it is still running/);
  assert.match(live.stderr, /code: JOURNAL_LOCKED/);
  assert.equal(existsSync(json), false, 'no report file says the run ended');

  stop.abort(new Error('received SIGTERM'));
  await running;
  // Killed before it unlocked: a lock of a process that no longer runs is read past, and said.
  writeFileSync(
    `${journal}.lock`,
    JSON.stringify({ pid: 2 ** 22 + 4321, host: hostname(), at: '2026-12-01T10:00:00Z', command: 'enginectl run' }),
  );
  const after = await runCli(['report', journal, '--report-json', json]);
  assert.equal(after.code, 1, after.stdout + after.stderr);
  assert.match(after.stderr, /its lock was left by process 4198625 .* which no longer runs/);
  assert.match(after.stdout, /in doubt/);
  assert.equal(existsSync(json), true);
});
