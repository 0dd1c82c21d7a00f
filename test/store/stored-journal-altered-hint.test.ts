// A record of a stored run's journal that no run writes so: a line whose CRC is right and whose
// JSON is not (damaged, before the end: no crash leaves it), a status record with no send before
// it (out of order), a record sealed with another key. Read from the store (report --store --run,
// run --resume ID), it is refused at its line, exit 2, nothing run. Before, the hint said "this
// file was altered, or is not (one) journal of enginectl run --journal" and "check where this file
// came from", as of a local --journal file, and run --resume named the copy it laid in TMPDIR.
// Now the refusal names the stored run (URL run ID:LINE), its hint where that line is in the store
// (the segment's key) and what to do: put the key back from a copy of the store, or start anew.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';

/** A run of the store that ended, and its journal's segments as files under the store's directory. */
async function storedRun(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-stored-altered-'));
  const file = join(dir, 'p.yml');
  writeFileSync(file, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  const store = join(dir, 'store');
  mkdirSync(store);
  const url = `file://${store}`;
  const first = await runCli(['run', file, '--emulator', '--store', url], { env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const [id] = readdirSync(join(store, 'runs'));
  const keys = readdirSync(join(store, 'runs', id!, 'journal'))
    .sort()
    .map((name) => `runs/${id}/journal/${name}`);
  const text = (key: string) => readFileSync(join(store, key), 'utf8');
  const lines = (key: string) => text(key).split('\n').length - 1;
  const last = keys.findLast((key) => lines(key) > 0)!;
  /** The line of the journal (from 1) the last segment's first line is. */
  const lastStarts = keys.slice(0, keys.indexOf(last)).reduce((n, key) => n + lines(key), 1);
  const readers = [
    ['report', '--store', url, '--run', id!],
    ['run', file, '--emulator', '--store', url, '--resume', id!],
  ];
  return { url, id: id!, store, keys, last, lastStarts, lines, text, readers };
}

/** A line whose CRC is right and whose record is no JSON: what no crash and no enginectl writes. */
function damagedLine(): string {
  const payload = '{"t":"status",}';
  return `${payload.slice(0, -1)},"crc":"${crc32(payload).toString(16).padStart(8, '0')}"}\n`;
}

function assertStoreWords(out: string, s: { url: string; id: string }, key: string): void {
  assert.doesNotMatch(out, /this file|enginectl run --journal|--journal/, out);
  assert.match(out, /nothing but enginectl writes under runs\/ in a run store/, out);
  assert.ok(out.includes(`${key} in ${s.url}`), `the hint names the key and the store\n${out}`);
  assert.match(out, /put it back from a copy of the store \(S3 versioning, a backup\)/, out);
  assert.ok(out.includes(`or give run ${s.id} up and start anew`), out);
}

test("a damaged record before the end of a stored run's journal: refused naming the run and the segment's key in the store, not 'this file'", async () => {
  const s = await storedRun();
  writeFileSync(join(s.store, s.last), damagedLine() + s.text(s.last));
  for (const args of s.readers) {
    const r = await runCli(args);
    const out = `${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, out);
    assert.match(r.stderr, /code: BAD_JOURNAL/, out);
    assert.ok(
      r.stderr.includes(`enginectl: ${s.url} run ${s.id}:${s.lastStarts}: a damaged record before the end`),
      `named as the stored run, not its local copy\n${out}`,
    );
    assert.match(r.stderr, /a crash only ever tears the last line/, out);
    assertStoreWords(r.stderr, s, s.last);
  }
});

test("a record out of order in a stored run's journal (a status with no send before it): refused at its line, the hint the store's", async () => {
  const s = await storedRun();
  const line = s.lastStarts + s.lines(s.last);
  writeFileSync(
    join(s.store, s.last),
    s.text(s.last) + encodeLine({ t: 'status', key: 'clear', at: Date.now(), method: 'POST', path: '/x', status: 200 }),
  );
  for (const args of s.readers) {
    const r = await runCli(args);
    const out = `${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, out);
    assert.match(r.stderr, /code: BAD_JOURNAL/, out);
    assert.ok(
      r.stderr.includes(`${s.url} run ${s.id}:${line}: a status record of clear with no send record before it`),
      out,
    );
    assert.match(r.stderr, /no run writes it so/, out);
    assertStoreWords(r.stderr, s, s.last);
  }
});

test("a stored run's journal read with another key than the one that sealed it: the hint says to read it with that key, or names the key in the store, not 'this file'", async () => {
  const s = await storedRun({ ENGINECTL_JOURNAL_KEY: 'the-key-that-sealed-it-0123456789' });
  const env = { ENGINECTL_JOURNAL_KEY: 'another-key-of-32-characters-xxxx' };
  const first = s.keys.find((key) => s.lines(key) > 0)!;
  for (const args of s.readers) {
    const r = await runCli(args, { env });
    const out = `${args.join(' ')}: exit ${r.code}\n${r.stdout}${r.stderr}`;
    assert.equal(r.code, 2, out);
    assert.match(r.stderr, /code: JOURNAL_UNAUTHENTICATED/, out);
    assert.ok(r.stderr.includes(`${s.url} run ${s.id}:1: a record whose seal is not that of this key`), out);
    assert.match(r.stderr, /read it with the key that wrote it/, out);
    assertStoreWords(r.stderr, s, first);
  }
});
