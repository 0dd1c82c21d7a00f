// `enginectl runs` lists every run a store holds even when some cannot be read: a run whose
// journal is not enginectl's (garbage written into the store) or whose name is no key of a store
// (terminal escapes in a directory's name) is named, inert, with why, and the runs around it are
// still listed with their outcomes; the exit code says that not all could be read.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('runs lists the runs it can read around one that cannot be, and names that one inert with why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-runs-damaged-'));
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
  // Written into the store by someone else: newer than the real runs, so listed before them.
  const garbage = '20991231T000000Z-ffffffffffff';
  mkdirSync(join(store, 'runs', garbage, 'journal'), { recursive: true });
  writeFileSync(join(store, 'runs', garbage, 'journal', '00000001'), 'garbage{\n');
  const escaped = '20991230T\u001b]0;PWNED\u0007\u001b[2J';
  mkdirSync(join(store, 'runs', escaped, 'journal'), { recursive: true });
  writeFileSync(join(store, 'runs', escaped, 'journal', '00000001'), 'x\n');

  const listed = await runCli(['runs', '--store', url]);
  const said = `exit ${listed.code}\n${listed.stdout}\n${listed.stderr}`;
  for (const id of ids)
    assert.match(listed.stdout, new RegExp(`^${id}  \\S+  "Stored" \\(.*p\\.yml\\)  success$`, 'm'), said);
  assert.match(
    listed.stdout,
    // Its segment is not whole records (a segment's lines each end in their CRC): read twice, damaged.
    new RegExp(`^${garbage}  cannot be read: .*journal/00000001 is not a segment of a journal of enginectl`, 'm'),
    said,
  );
  assert.match(listed.stdout, /^20991230T.*cannot be read: .*is not a key of the run store/m, said);
  assert.doesNotMatch(
    listed.stdout + listed.stderr,
    // eslint-disable-next-line no-control-regex
    /\u001b|\u0007/,
    'nothing of a name reaches the terminal as a control',
  );
  assert.notEqual(listed.code, 0, said);
});

test('runs --last takes a whole number written as digits: 1e1, 0x10, 2.0 and an empty one are refused, naming the flag', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-runs-last-'));
  mkdirSync(join(dir, 'store', 'runs'), { recursive: true });
  for (const last of ['1e1', '0x10', '2.0', '', ' 3', '0']) {
    const r = await runCli(['runs', '--store', `file://${join(dir, 'store')}`, '--last', last]);
    assert.equal(r.code, 2, `--last ${JSON.stringify(last)}: exit ${r.code}\n${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /runs --last .*: a whole number from 1/, r.stderr);
  }
  const ok = await runCli(['runs', '--store', `file://${join(dir, 'store')}`, '--last', '3']);
  assert.equal(ok.code, 0, ok.stderr);
});
