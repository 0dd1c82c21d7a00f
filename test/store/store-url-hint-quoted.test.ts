// A hint that names a command line names the store as one shell word: a directory store under a
// path with a space (a runner's "Build Agent" folder) gave `--store file:///…/Build Agent/store`,
// which a shell reads as two words, the store as a folder that is not there.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('report --merge of a one-job run names the store as one shell word in the command it hints', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'enginectl-hint-quoted-')), 'Build Agent');
  const store = join(dir, 'store');
  mkdirSync(store, { recursive: true });
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nname: Stored\nsteps:\n  - uses: transaction-log/clear\n');
  const url = `file://${store}`;
  const run = await runCli(['run', file, '--emulator', '--store', url]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const id = /^run: (\S+) in /m.exec(run.stdout)![1]!;
  const merged = await runCli(['report', '--merge', '--store', url, '--run', id]);
  const said = `exit ${merged.code}\n${merged.stdout}${merged.stderr}`;
  assert.match(merged.stderr, /is not a sharded run/, said);
  assert.ok(merged.stderr.includes(`enginectl report --store '${url}' --run ${id}`), said);
});
