// A file directly under a directory store's runs/ whose name begins as a run id does (an
// operator's backup of a run beside it, runs/ID.tar.gz) is read by `runs` as a run, and its
// journal listed as the directory runs/ID.tar.gz/journal/: ENOTDIR, STORE_FAILED, and the listing
// stops there, the runs after it never listed, with the hint "check the directory is mounted and
// writable by this runner", which nothing about it is. runs --help: a run that cannot be read is
// named with why, the others still listed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('runs lists every run of a directory store whose runs/ holds a backup file of one run beside it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-runs-file-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nname: Stored\nsteps:\n  - uses: transaction-log/clear\n');
  const store = join(dir, 'store');
  mkdirSync(store);
  const url = `file://${store}`;
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const run = await runCli(['run', file, '--emulator', '--store', url]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    ids.push(/^run: (\S+) in /m.exec(run.stdout)![1]!);
  }
  // An operator's backup of the older run, kept beside it.
  execFileSync('tar', ['czf', join(store, 'runs', `${ids[0]}.tar.gz`), '-C', join(store, 'runs'), ids[0]!]);

  const listed = await runCli(['runs', '--store', url]);
  const said = `exit ${listed.code}\n${listed.stdout}\n${listed.stderr}`;
  for (const id of ids)
    assert.match(listed.stdout, new RegExp(`^${id}  \\S+  "Stored" \\(.*p\\.yml\\)  success$`, 'm'), said);
  assert.doesNotMatch(listed.stderr, /ENOTDIR|mounted and writable/, said);
});
