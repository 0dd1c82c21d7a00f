// enginectl verify of a journal a run still writes: the call that run has in flight is not in
// doubt (the run waits for its answer), so verify refuses (JOURNAL_LOCKED) and decides nothing.
// The run is the CLI's source as a process of its own (node --import tsx src/cli/bin.ts), holding
// the journal's lock while its write hangs at the emulator (the `hang` fault: no answer until the
// test kills it); once it is killed, its lock is stale and verify reads the journal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cleanEnv, runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { until } from '../helpers/timing.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const PATCH = '/api/classes/v1/classes/12/entities/2001';

test('verify of a journal whose run is still alive (its write in flight) is refused, deciding nothing; once that run is gone, its stale lock does not block verify', async (t) => {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'PATCH', path: PATCH, hang: true, times: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-lock-'));
  const file = join(dir, 'upd.yml');
  writeFileSync(
    file,
    `version: 1
name: Pending update
steps:
  - id: upd
    uses: classes/update
    timeout: 10m
    with: { class: 12, id: 2001, fields: { iemailaddress: new@example.com } }
`,
  );
  const journal = join(dir, 'j.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'run', file, '--journal', journal], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const closed = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  t.after(() => void child.kill('SIGKILL'));
  let ended = false;
  void closed.then(() => (ended = true));
  const patches = () => emulator.requests.filter((r) => r.method === 'PATCH' && r.path === PATCH).length;
  await until(() => patches() === 1 || ended);
  assert.equal(ended, false, `the run ended before its write reached the server: ${output}`);

  // The run is alive, its PATCH unanswered: verify refuses, reads nothing and writes nothing.
  const requests = emulator.requests.length;
  const written = readFileSync(journal, 'utf8');
  const live = await runCli(['verify', journal], { env });
  assert.equal(live.code, 2, live.stdout + live.stderr);
  assert.match(
    live.stderr,
    new RegExp(`journal .*j\\.jsonl is in use by process ${child.pid} on .*: the run that writes it is still running`),
  );
  assert.match(live.stderr, /verify once that run has ended/);
  assert.equal(live.stdout, '', 'no verdict');
  assert.equal(emulator.requests.length, requests, 'nothing was read from the server');
  assert.equal(readFileSync(journal, 'utf8'), written, 'the journal is as the run left it');
  assert.equal(existsSync(`${journal}.lock`), true, "the run's lock is left to it");

  // The run killed: its lock is stale (its process gone), and verify reads the write it left in doubt.
  child.kill('SIGKILL');
  assert.equal(await closed, 'SIGKILL');
  const stale = await runCli(['verify', journal], { env });
  assert.equal(stale.code, 1, stale.stdout + stale.stderr);
  assert.match(stale.stderr, new RegExp(`its lock was left by process ${child.pid} .*which no longer runs`));
  assert.match(
    stale.stdout,
    /^cannot-tell +"Update an entity" \(PATCH \/api\/classes\/v1\/classes\/12\/entities\/2001\): /m,
  );
  assert.match(stale.stdout, /^1 in doubt: 0 applied, 0 not applied, 1 cannot tell$/m);
});
