// A run killed right after a write left (no answer, no end), its inputs changed before the resume
// (--force): the journal holds the inputs the write was sent with (its send record), so the
// resume tells the call in doubt from the instance as it reads now. The operator's word on the
// call (--in-doubt skip: it was applied) is about that call; the instance, another call now, runs
// as --force says every instance whose inputs changed does. Before, the journal knew no inputs of
// an instance that never ended: the word was carried as the changed instance's end, which was never
// sent (the new database never updated, the journal saying it was), and once the file was put back
// as it was, the next resume read "its inputs changed" and sent the applied write a second time.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const pipeline = (database: 'PROD' | 'STAGING') => `version: 1
name: Killed release
targets:
  prod: { server: ${database.toLowerCase()}-db.example.com, database: ${database}, token: "\${{ secrets.${database}_TOKEN }}" }
steps:
  - uses: update/system
    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }
`;

/** What a kill right after the last send record leaves of the journal. */
function cutAfterLastSend(journal: string): void {
  const records = readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const at = records.findLastIndex((r) => r.t === 'send');
  writeFileSync(
    journal,
    records
      .slice(0, at + 1)
      .map(({ crc: _crc, ...r }) => encodeLine(r))
      .join(''),
  );
}

test('a write killed in flight, decided applied (--in-doubt skip) by a resume of a changed file, is that call: the instance as it reads now runs, and is carried after', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-killed-inputs-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, pipeline('PROD'));
  const env = {
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    STAGING_TOKEN: 'staging-token',
    ENGINE_URL: url,
  };
  const journal = join(dir, 'run.journal.jsonl');
  const sent = () => emulator.requests.filter((r) => r.applied && r.path.endsWith('/update/system')).length;

  const run = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  cutAfterLastSend(journal);
  assert.equal(sent(), 1);

  // The operator edits the file (another database), and says the call in doubt was applied.
  writeFileSync(file, pipeline('STAGING'));
  const first = await runCli(['run', file, '--resume', journal, '--force', '--in-doubt', 'skip'], { env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.equal(sent(), 2, `STAGING sent: ${first.stdout}${first.stderr}`);
  assert.match(first.stdout, /✔ \[1\/1\] System update prod {2}\d+ms/);
  assert.match(first.stdout + first.stderr, /its inputs changed since the journal's run/);
  // Its end is STAGING's, sent: the same file again carries it.
  const second = await runCli(['run', file, '--resume', journal], { env });
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.equal(sent(), 2, `nothing sent again: ${second.stdout}${second.stderr}`);
});

test('a write killed in flight, decided applied (--in-doubt skip) with the file as it was, is carried with the inputs it was sent with', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-killed-inputs-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, pipeline('PROD'));
  const env = {
    ENGINE_USERNAME: 'admin',
    ENGINE_PASSWORD: 'admin',
    PROD_TOKEN: 'prod-token',
    STAGING_TOKEN: 'staging-token',
    ENGINE_URL: url,
  };
  const journal = join(dir, 'run.journal.jsonl');
  const sent = () => emulator.requests.filter((r) => r.applied && r.path.endsWith('/update/system')).length;
  assert.equal((await runCli(['run', file, '--journal', journal], { env })).code, 0);
  cutAfterLastSend(journal);
  const first = await runCli(['run', file, '--resume', journal, '--in-doubt', 'skip'], { env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  // The file edited afterwards (--force): the instance's inputs changed since the call decided applied: it runs.
  writeFileSync(file, pipeline('STAGING'));
  const second = await runCli(['run', file, '--resume', journal, '--force'], { env });
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.equal(sent(), 2, second.stdout);
  // Said so: the instance runs as --force says of inputs changed since the journal's run.
  assert.match(second.stdout + second.stderr, /its inputs changed since the journal's run/);
});
