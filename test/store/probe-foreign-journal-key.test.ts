// A key under a run's journal prefix that is no segment (an operator's copy of one,
// `00000001.orig`, or a file manager's `.DS_Store`) is foreign to the run store. `runs` promises
// that a run it cannot read is named "cannot be read" with why and the others are still listed
// (runs --help): here the listing stops at that run with STORE_FAILED, saying "the store lost a
// segment" of a run whose segments are all there, and the runs older than it are never listed.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('runs lists every run around one whose journal prefix holds a foreign key, and never says a segment was lost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-probe-foreign-key-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nname: Stored\nsteps:\n  - uses: transaction-log/clear\n');
  const store = join(dir, 'store');
  mkdirSync(store);
  const url = `file://${store}`;
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const run = await runCli(['run', file, '--emulator', '--store', url]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    ids.push(/^run: (\S+) in /m.exec(run.stdout)![1]!);
  }
  // The middle run: an operator kept a copy of its first segment beside it.
  const journal = join(store, 'runs', ids[1]!, 'journal');
  copyFileSync(join(journal, '00000001'), join(journal, '00000001.orig'));

  const listed = await runCli(['runs', '--store', url]);
  const said = `exit ${listed.code}\n${listed.stdout}\n${listed.stderr}`;
  // Every run is listed: the two untouched ones with their outcome, the middle one read or named.
  for (const id of [ids[0]!, ids[2]!])
    assert.match(listed.stdout, new RegExp(`^${id}  \\S+  "Stored" \\(.*p\\.yml\\)  success$`, 'm'), said);
  assert.match(listed.stdout, new RegExp(`^${ids[1]}  `, 'm'), said);
  // Nothing was lost: every segment of that run is in the store.
  assert.doesNotMatch(listed.stdout + listed.stderr, /lost a segment|lacks segment/, said);
});
