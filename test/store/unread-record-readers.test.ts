// A stored run's journal this enginectl cannot read (a damaged record, a newer enginectl's
// version), met by a reader that only consults it: the history of a run with windows (the
// store's latest runs give each write's p95), and lease release (the holder's pipeline, whose
// secrets mask the reason). Each went on without it, as it should (history is advice; a holder's
// pipeline that cannot be read leaves the reason as given, the contract says), but the history
// said nothing at all, and the release said the refusal's message alone: neither where the record
// is nor what to do. Now each says a warning naming the run, with the words every reader of the
// store gives (storedWays: the segment's key, put it back from a copy of the store), and goes on
// deciding nothing on what it could not read.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { encodeLine } from '../../src/journal/frame.ts';
import { DirectoryStore } from '../../src/store/directory.ts';
import { acquireLease } from '../../src/store/lease.ts';
import { runCli } from '../helpers/cli.ts';

const PIPELINE = `version: 1
windows:
  night: { cron: '0 2 * * *', duration: 2h, zone: Europe/Berlin }
steps:
  - id: alerts
    uses: monitoring/alerts
  - id: clear
    uses: transaction-log/clear
`;

function storeDir() {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-unread-record-'));
  const store = join(dir, 'store');
  mkdirSync(store);
  const file = join(dir, 'p.yml');
  writeFileSync(file, PIPELINE);
  const plain = join(dir, 'plain.yml');
  writeFileSync(plain, 'version: 1\nsteps:\n  - uses: transaction-log/clear\n');
  return { dir, store, url: `file://${store}`, file, plain };
}

/** The keys of run `id`'s journal segments, the first that holds a line, and the last. */
function segments(store: string, id: string) {
  const keys = readdirSync(join(store, 'runs', id, 'journal'))
    .sort()
    .map((name) => `runs/${id}/journal/${name}`);
  const held = keys.filter((key) => readFileSync(join(store, key), 'utf8') !== '');
  return { first: held[0]!, last: held.at(-1)! };
}

/** A line whose CRC is right and whose record is no JSON, put before the last segment's lines. */
function damage(store: string, id: string): string {
  const { last } = segments(store, id);
  const payload = '{"t":"status",}';
  const line = `${payload.slice(0, -1)},"crc":"${crc32(payload).toString(16).padStart(8, '0')}"}\n`;
  writeFileSync(join(store, last), line + readFileSync(join(store, last), 'utf8'));
  return last;
}

/** Its run record rewritten as a newer enginectl's (version 9), its CRC right. */
function newer(store: string, id: string): void {
  const { first } = segments(store, id);
  const [head, ...rest] = readFileSync(join(store, first), 'utf8').split('\n');
  const { crc: _crc, ...record } = JSON.parse(head!) as Record<string, unknown>;
  writeFileSync(join(store, first), [encodeLine({ ...record, v: 9 }).trimEnd(), ...rest].join('\n'));
}

const runIdOf = (stdout: string) => /^run: (\S+) in /m.exec(stdout)?.[1];

test("the store's latest runs as history: a run whose journal cannot be read is passed over with a warning naming it and saying what to do; the p95 is the others'", async () => {
  const s = storeDir();
  const ids: string[] = [];
  // Five earlier runs: two it cannot read, three to give the p95 (at least three samples).
  for (let i = 0; i < 5; i++) {
    const r = await runCli(['run', s.file, '--emulator', '--clock', '2026-03-09T01:05:00Z', '--store', s.url]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    ids.push(runIdOf(r.stdout)!);
  }
  const key = damage(s.store, ids[0]!);
  newer(s.store, ids[1]!);
  const json = join(s.dir, 'r.json');
  const r = await runCli([
    'run',
    s.file,
    '--emulator',
    '--clock',
    '2026-03-10T02:30:00Z',
    '--store',
    s.url,
    '--report-json',
    json,
  ]);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 0, said);
  const clear = (
    JSON.parse(readFileSync(json, 'utf8')) as { steps: { id: string; window: { expectedFrom: string } }[] }
  ).steps.find((step) => step.id === 'clear');
  assert.equal(clear?.window.expectedFrom, 'history', said);
  const warnings = said.split('\n').filter((line) => line.includes('warning:'));
  const of = (id: string) => warnings.find((line) => line.includes(`${s.url} run ${id}`)) ?? '';
  assert.match(of(ids[0]!), /its write durations are not counted/, said);
  assert.match(of(ids[0]!), /a damaged record before the end/, said);
  assert.ok(of(ids[0]!).includes(`its record at ${key} in ${s.url} was altered`), said);
  assert.match(of(ids[0]!), /put it back from a copy of the store/, said);
  assert.match(of(ids[1]!), /a journal of version 9; .*a newer enginectl wrote it/, said);
  assert.match(of(ids[1]!), /with that enginectl or a later one/, said);
  for (const id of ids.slice(2)) assert.equal(of(id), '', said);
  // A warning of a run that goes on: not the refusal's "nothing was run".
  assert.doesNotMatch(warnings.join('\n'), /nothing was run/, said);
});

test("lease release whose holder's journal cannot be read: the warning names the record and says what to do, in the store's words", async () => {
  const s = storeDir();
  const first = await runCli(['run', s.plain, '--emulator', '--store', s.url]);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  const key = damage(s.store, id);
  await acquireLease(new DirectoryStore(s.url), 'prod-fleet', {
    holder: { runId: id, actor: 'night-job', host: 'runner-7' },
    ttlMs: 3_600_000,
    waitMs: 0,
    clock: { now: () => Date.now(), sleep: async () => undefined },
    verifyTakeover: async () => ({ evidence: [] }),
  });
  const r = await runCli(['lease', 'release', 'prod-fleet', '--store', s.url, '--reason', 'runner-7 was lost']);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 0, said);
  assert.match(r.stderr, /warning: the reason is recorded as given: .*a damaged record before the end/, said);
  assert.ok(r.stderr.includes(`its record at ${key} in ${s.url} was altered`), said);
  assert.match(r.stderr, /put it back from a copy of the store/, said);
  assert.match(r.stderr, /give --pipeline FILE/, said);
  assert.doesNotMatch(r.stderr, /nothing was run/, said);
});

test('run --resume of a stored run written by a newer enginectl: refused with the version and what to do, nothing run', async () => {
  const s = storeDir();
  const first = await runCli(['run', s.plain, '--emulator', '--store', s.url]);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const id = runIdOf(first.stdout)!;
  newer(s.store, id);
  const r = await runCli(['run', s.plain, '--emulator', '--store', s.url, '--resume', id]);
  const said = `exit ${r.code}\n${r.stdout}${r.stderr}`;
  assert.equal(r.code, 2, said);
  assert.ok(r.stderr.includes(`${s.url} run ${id}:1: a journal of version 9`), said);
  assert.match(r.stderr, /with that enginectl or a later one/, said);
});
