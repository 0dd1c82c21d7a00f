// A resume of a stored run lays the run's journal, read from the store, in a local file first
// (--journal F, or one in the temporary directory). On a full disk that copy cannot be written.
// Before, the file system's error came out as it was: "enginectl: internal error: ENOSPC: no space
// left on device, write" (and a torn copy was left in the temporary directory). It is invalid
// input (BAD_JOURNAL, exit 2) naming the file and the reason, nothing run; a path that is no
// regular file (/dev/full here, the full disk's stand-in) is left as it is.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Resumed on a full disk
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`;

test("a stored run's journal that cannot be laid in its local copy (a full disk) is BAD_JOURNAL, exit 2, never an internal error", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-copy-full-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  mkdirSync(join(dir, 'store'));
  const store = `file://${join(dir, 'store')}`;
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', status: 409, times: 1 });
  const first = await runCli(['run', file, '--store', store], { env });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const id = /^run: (\S+) in /m.exec(first.stdout)![1]!;
  const sent = emulator.requests.length;

  const r = await runCli(['run', file, '--store', store, '--resume', id, '--journal', '/dev/full'], { env });
  assert.doesNotMatch(r.stderr, /internal error/, r.stderr);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`journal /dev/full: cannot lay the journal of run ${id} from the store in it \\(ENOSPC\\)`),
  );
  assert.match(r.stderr, /code: BAD_JOURNAL/);
  assert.equal(emulator.requests.length, sent, 'nothing was sent');
  assert.ok(statSync('/dev/full').isCharacterDevice(), '/dev/full is left as it is');
});
