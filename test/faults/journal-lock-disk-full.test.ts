// A journal's lock on a full disk: the lock file is created (an inode is free) but its holder
// cannot be written in it (ENOSPC). Before, the error came out as "internal error: ENOSPC: no
// space left on device, write" and the empty lock stayed behind, so every later run, the disk
// freed, was refused: "in use by an unreadable lock (...) a lost runner on another host". It is
// invalid input (BAD_JOURNAL, exit 2) naming the lock and the reason, and no lock is left. The
// file system is the journal's seam (a full disk, as on a small tmpfs); the set-up is the run's.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setUpJournal } from '../../src/app/journal-setup.ts';
import { loadPipelineFile } from '../../src/app/pipeline-input.ts';
import { EVERY_INSTANCE } from '../../src/pipeline/selection.ts';
import { EnginectlError } from '../../src/errors.ts';
import type { JournalFs } from '../../src/journal/file.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: On a full disk
targets:
  prod: { server: prod-db.example.com, database: PROD, token: prod-token }
steps:
  - uses: update/vfs
    with: { target: prod, files: [1001] }
`;

/** node:fs on a disk with inodes left and no byte: files are created, nothing is written in them. */
const noBytes: JournalFs = {
  ...fs,
  writeSync: (() => {
    throw Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC' });
  }) as JournalFs['writeSync'],
};

test("a journal's lock on a full disk is BAD_JOURNAL (exit 2) naming ENOSPC, and leaves no empty lock that refuses every later run", async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-lock-full-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin' };
  const { pipeline, sources } = await loadPipelineFile(file, {
    readFile: (p: string) => fs.promises.readFile(p, 'utf8'),
    env,
  });
  const failed = await setUpJournal({
    path: journal,
    resume: false,
    force: false,
    inDoubt: undefined,
    pipeline,
    sources,
    vars: {},
    selection: EVERY_INSTANCE,
    env,
    command: 'test',
    now: Date.now(),
    fs: noBytes,
    warn: (w) => assert.fail(w),
  }).then(
    () => assert.fail('the journal was opened on a full disk'),
    (error: unknown) => error,
  );
  assert.ok(failed instanceof EnginectlError, String(failed));
  assert.equal(failed.code, 'BAD_JOURNAL');
  assert.equal(failed.exitCode, 2);
  assert.match(failed.message, /cannot write its lock .*run\.journal\.jsonl\.lock \(ENOSPC\)/);
  assert.equal(existsSync(`${journal}.lock`), false, 'no empty lock is left');

  // The disk freed: the next run takes the journal.
  const next = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(next.code, 0, next.stdout + next.stderr);
});
