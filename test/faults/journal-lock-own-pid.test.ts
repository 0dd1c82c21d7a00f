// A journal's lock naming this process's own pid on this host, which this process does not hold.
// Two processes of one host have the same pid in their own pid namespaces: two containers of one
// pod (which share its host name), or two started with the host's network (`docker run --network
// host`, which takes the host's name), are each pid 1. From here, such a lock cannot be told from
// one a killed run left before its container restarted in place: the file is the same. A live
// holder's lock taken over is two runs appending one journal and sending its writes twice (seen
// with `unshare -pf`: the second run took the first's lock "which no longer runs" and sent the
// POST the first still had in flight), so it is refused, the hint saying both cases; deleted by
// the operator, the resume goes on. A lock this process holds itself is refused too.
// Through the CLI's entry function, in this process: its pid is the other holder's.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

test("a journal's lock naming this process's pid (a container's pid 1), not held by it, is refused, never taken over: another container's live run may hold it", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-own-pid-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', status: 409, times: 1 });
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 1);
  // A lock naming this process's pid, on this host: another container's run (pid 1 there too), or a killed one.
  writeFileSync(
    `${journal}.lock`,
    JSON.stringify({
      pid: process.pid,
      host: hostname(),
      at: '2026-12-01T10:00:00Z',
      command: `enginectl run ${file}`,
    }),
  );
  const clears = emulator.count('POST', '/api/devops/v1/transaction-log/clear');
  const refused = await runCli(['run', file, '--resume', journal], { env });
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, new RegExp(`in use by process ${process.pid} on ${hostname()}`));
  assert.match(refused.stderr, /code: JOURNAL_LOCKED/);
  assert.match(refused.stderr, /this process's own pid.*another container/s);
  assert.equal(emulator.count('POST', '/api/devops/v1/transaction-log/clear'), clears, 'nothing was sent');
  assert.equal(existsSync(`${journal}.lock`), true, 'the lock is left to its holder');
  const verify = await runCli(['verify', journal], { env });
  assert.equal(verify.code, 2, verify.stdout + verify.stderr);
  assert.match(verify.stderr, /code: JOURNAL_LOCKED/);

  // The operator, who knows no run holds it, deletes it: the resume goes on.
  rmSync(`${journal}.lock`);
  const resumed = await runCli(['run', file, '--resume', journal], { env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(emulator.count('POST', '/api/devops/v1/update/vfs'), 1, 'the update done before is not sent again');
  assert.equal(existsSync(`${journal}.lock`), false, 'released at the end');

  // A run of this process that holds the journal: a second one is refused while it runs.
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/transaction-log/clear', hang: true, times: 1 });
  const stop = new AbortController();
  const second = join(dir, 'second.jsonl');
  const holding = runCli(['run', file, '--journal', second], { env, signal: stop.signal });
  await until(() => emulator.inFlight === 1);
  const again = await runCli(['run', file, '--journal', second], { env });
  assert.equal(again.code, 2, again.stdout + again.stderr);
  assert.match(again.stderr, new RegExp(`in use by process ${process.pid}`));
  stop.abort(new Error('received SIGTERM'));
  await holding;
});
