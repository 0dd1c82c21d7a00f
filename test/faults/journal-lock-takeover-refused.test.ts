// A journal's stale lock (its run killed) in a directory this process cannot write: the takeover
// cannot create its own lock there, nor remove the stale one (a directory of another user, a
// read-only mount, /tmp's sticky bit over another user's lock). Before, the file system's error
// came out as it was: "enginectl: internal error: EACCES: permission denied, open '….lock.takeover'".
// It is invalid input (BAD_JOURNAL, exit 2) that names the lock and says what to do; nothing runs.
// As root, the CLI runs as nobody (root writes anywhere); otherwise as this user.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Locked out
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`;

test('a stale journal lock that cannot be taken over (a directory this process cannot write) is BAD_JOURNAL, exit 2, never an internal error', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lock-ro-'));
  chmodSync(dir, 0o755);
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE, { mode: 0o644 });
  const journals = join(dir, 'journals');
  mkdirSync(journals);
  const journal = join(journals, 'run.journal.jsonl');
  // Left by a run of this host that no longer runs.
  writeFileSync(
    `${journal}.lock`,
    JSON.stringify({ pid: 2 ** 22 + 777, host: hostname(), at: '2026-12-01T10:00:00Z', command: 'enginectl run' }),
    { mode: 0o644 },
  );
  chmodSync(journals, 0o555);
  const r = await runCli(['run', file, '--journal', journal], {
    env: { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' },
    ...(process.getuid?.() === 0 ? { uid: 65534 } : {}),
  });
  assert.doesNotMatch(r.stderr, /internal error/, r.stderr);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /its lock was left by process 4195081, which no longer runs, and cannot be taken over \(EACCES\)/,
    r.stderr,
  );
  assert.match(r.stderr, /code: BAD_JOURNAL/);
  assert.equal(emulator.requests.length, 0, 'nothing was sent');
});
