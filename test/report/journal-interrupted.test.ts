// A run interrupted (SIGTERM) writes its reports, and its journal says why it stopped: a report of
// the journal words its unrun steps as the live report did ("cancelled: the run was interrupted"),
// not "not started: the run ended before it", which is what a killed run's journal can only say.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';

const PIPELINE = `version: 1
name: Interrupted
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: clear
    uses: transaction-log/clear
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: sync
    uses: replication/sync
`;

type Step = { id: string; outcome: string; error?: { code: string; message: string } | null; inDoubt?: unknown };

test("report JOURNAL of an interrupted run words its steps as the run's own report did", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-interrupted-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const journal = join(dir, 'run.journal.jsonl');
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', hang: true, times: 1 });
  const stop = new AbortController();
  const running = runCli(['run', file, '--journal', journal, '--report-json', join(dir, 'live.json')], {
    env,
    signal: stop.signal,
  });
  await until(() => emulator.inFlight === 1);
  stop.abort(new Error('received SIGTERM'));
  assert.equal((await running).code, 130);
  const rebuilt = await runCli(['report', journal, '--report-json', join(dir, 'journal.json')]);
  assert.equal(rebuilt.code, 1, rebuilt.stdout + rebuilt.stderr);
  const steps = (name: string) =>
    (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { steps: Step[] }).steps.map((s) => [
      s.id,
      s.outcome,
      s.error?.code,
      s.error?.message,
    ]);
  const live = steps('live.json');
  assert.deepEqual(live.at(-1), ['sync', 'cancelled', 'CANCELLED', 'cancelled: the run was interrupted']);
  assert.deepEqual(steps('journal.json'), live);
});
