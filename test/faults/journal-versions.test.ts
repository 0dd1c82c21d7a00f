// The journal's versions: version 3 hashes each file the run reads by its SHA-256 (so a shard's
// sites hash their fleet's files in time that does not grow with them); a journal of version 2,
// which hashed each file's text, is still resumed as it hashed, and stays version 2 (its
// unchanged file read as unchanged, a changed one refused; an enginectl that reads version 2 only
// can still read it); a version this enginectl does not read is refused, naming the versions it reads.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { keyedHash, valuesHash } from '../../src/journal/hashing.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Release across journal versions
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: clear
    uses: transaction-log/clear
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

type RunLine = {
  t: 'run';
  v: number;
  salt: string;
  hash: string;
  files: { path: string; hash: string }[];
  crc?: string;
};

/** The journal's lines, its run record parsed; and the journal written again with the run record as `edit` leaves it. */
function rewriteRunRecord(journal: string, edit: (run: RunLine) => RunLine): RunLine {
  const [first, ...rest] = readFileSync(journal, 'utf8').split('\n');
  const { crc: _crc, ...run } = JSON.parse(first!) as RunLine;
  const edited = edit(run);
  writeFileSync(journal, encodeLine(edited) + rest.join('\n'));
  return run;
}

test('a journal of version 2 (each file hashed by its text) resumes here as it hashed: unchanged reads as unchanged, nothing applied is sent again, a changed file is refused; this enginectl writes version 3, each file by its SHA-256', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-v-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const first = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const sent = () => emulator.requests.filter((r) => r.path.endsWith('/update/vfs')).length;
  assert.equal(sent(), 1);

  // Written as version 3: the file's hash is the salted HMAC of its SHA-256, not of its text.
  const written = rewriteRunRecord(journal, (run) => {
    const files = run.files.map((f) => ({ path: f.path, hash: keyedHash(run.salt, PIPELINE) }));
    return { ...run, v: 2, files, hash: valuesHash(run.salt, files) };
  });
  assert.equal(written.v, 3);
  assert.match(written.files[0]!.hash, /^hmac-sha256-of-sha256:[0-9a-f]{64}$/);
  assert.notEqual(written.files[0]!.hash.slice(-64), keyedHash(written.salt, PIPELINE).slice(-64));

  // The same journal as enginectl wrote it before version 3: resumed, the file unchanged, nothing sent again.
  const resumed = await runCli(['run', file, '--resume', journal], { env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.doesNotMatch(resumed.stderr, /changed/);
  assert.equal(sent(), 1, 'the applied update is not sent again');
  const records = readFileSync(journal, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RunLine)
    .filter((r) => r.t === 'run');
  assert.equal(records.length, 2);
  assert.equal(records[1]!.v, 2, "the resume's record is of the journal's version");
  assert.equal(records[1]!.files[0]!.hash, records[0]!.files[0]!.hash, "the resume's record hashes as the journal did");

  // A changed file is still told.
  writeFileSync(join(dir, 'changed.yml'), PIPELINE.replace('files: [1001]', 'files: [1002]'));
  const changed = await runCli(['run', join(dir, 'changed.yml'), '--resume', journal], { env });
  assert.equal(changed.code, 2, changed.stdout + changed.stderr);
  assert.match(changed.stderr, /the pipeline file changed since the journal's run/);
  assert.equal(sent(), 1);
});

test('a journal of a version this enginectl does not read is refused at its run record, naming the versions it reads', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-v-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 0);
  rewriteRunRecord(journal, (run) => ({ ...run, v: 9 }));
  const r = await runCli(['report', journal]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /run\.journal\.jsonl:1: a journal of version 9; this enginectl reads versions 2, 3 and 4/);
});

test('a journal of a later version says a newer enginectl wrote it, with what to do, to report and run --resume alike; a run record with no version, or one that is no number, is said so, not "version undefined"', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-v-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const journal = join(dir, 'run.journal.jsonl');
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 0);
  const original = readFileSync(journal, 'utf8');
  rewriteRunRecord(journal, (run) => ({ ...run, v: 5 }));
  for (const args of [
    ['report', journal],
    ['run', file, '--resume', journal],
  ]) {
    const r = await runCli(args, { env });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /run\.journal\.jsonl:1: a journal of version 5; this enginectl reads versions 2, 3 and 4: a newer enginectl wrote it/,
    );
    assert.match(r.stderr, /hint: read, resume or continue it with that enginectl or a later one/);
  }
  for (const [v, words] of [
    [undefined, 'its run record has no version'],
    ['3', 'its run record\'s version is "3", not a number'],
  ] as const) {
    writeFileSync(journal, original);
    rewriteRunRecord(
      journal,
      ({ v: _v, ...run }) => (v === undefined ? run : { ...run, v: v as unknown as number }) as RunLine,
    );
    const r = await runCli(['report', journal]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.ok(r.stderr.includes(`run.journal.jsonl:1: not a journal of enginectl: ${words}`), r.stderr);
    assert.doesNotMatch(r.stderr, /version undefined|a journal of version 3;/);
  }
});
