// A record of a stored run's journal that is no journal record (a type no enginectl writes, a line
// whole and its CRC right: written by something else) is refused, BAD_JOURNAL. Before, the hint
// said "give the file written by enginectl run --journal": a file the user never gave, a store run
// being read. Now it speaks of the store: nothing but enginectl writes under runs/, put its
// segments back from a copy of the store.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';

test("a record of a stored run's journal of a type no enginectl writes: the refusal's hint is the store's, not a --journal file's (report, run --resume)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-stored-record-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  const store = join(dir, 'store');
  mkdirSync(store);
  const url = `file://${store}`;
  const first = await runCli(['run', file, '--emulator', '--store', url]);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const [run] = readdirSync(join(store, 'runs'));
  const segments = join(store, 'runs', run!, 'journal');
  const last = join(segments, readdirSync(segments).sort().at(-1)!);
  appendFileSync(last, encodeLine({ t: 'weird', at: Date.now() }));
  for (const args of [
    ['report', '--store', url, '--run', run!],
    ['run', file, '--emulator', '--store', url, '--resume', run!],
  ]) {
    const r = await runCli(args);
    const out = `${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, out);
    assert.match(r.stderr, /code: BAD_JOURNAL/, out);
    assert.match(r.stderr, new RegExp(`${url} run ${run}:\\d+: not a journal record`), out);
    assert.doesNotMatch(r.stderr, /give the file written by/, out);
    assert.match(r.stderr, /nothing but enginectl writes under runs\/ in a run store/, out);
  }
});
