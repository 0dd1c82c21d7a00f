// A journal's lock left by a killed run whose pid is this process's own: in a container the CLI is
// often pid 1 (or another fixed small pid) at every start, and a container restarted in place (a
// Kubernetes pod's restartPolicy, docker restart) keeps its host name, so the killed run's lock
// names this very process. Before, it was read as held by a live run (the pid is alive: it is
// this one) and every resume was refused (JOURNAL_LOCKED) until someone deleted the lock by hand.
// A lock this process holds itself (a second run of the same journal in one process) is still
// refused. Through the CLI's entry function, in this process: its pid is the killed run's.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';

const PIPELINE = `version: 1
name: Restarted in its container
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: clear
    uses: transaction-log/clear
`;

test("a journal's lock left by a killed run with this process's pid (a container's pid 1) is taken over; one this process holds is refused", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-own-pid-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', status: 409, times: 1 });
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 1);
  // The run was killed before it unlocked: its lock names this process's pid, on this host.
  writeFileSync(
    `${journal}.lock`,
    JSON.stringify({
      pid: process.pid,
      host: hostname(),
      at: '2026-12-01T10:00:00Z',
      command: `enginectl run ${file}`,
    }),
  );
  const resumed = await runCli(['run', file, '--resume', journal], { env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, new RegExp(`its lock was left by process ${process.pid} .*; taken over`));
  assert.equal(emulator.count('POST', '/api/devops/v1/update/vfs'), 1, 'the update done before is not sent again');
  assert.equal(existsSync(`${journal}.lock`), false, 'released at the end');

  // A run of this process that holds the journal: a second one is refused while it runs.
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', hang: true, times: 1 });
  const stop = new AbortController();
  const second = join(dir, 'second.jsonl');
  const holding = runCli(['run', file, '--journal', second], { env, signal: stop.signal });
  await until(() => emulator.inFlight === 1);
  const refused = await runCli(['run', file, '--journal', second], { env });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, new RegExp(`in use by process ${process.pid}`));
  stop.abort(new Error('received SIGTERM'));
  await holding;
});
