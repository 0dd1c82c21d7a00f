// A journal's first line, torn or foreign. A run killed while writing its first record (the run
// record, written before anything is sent) leaves a journal of one torn line: nothing was sent
// under it, so a resume runs from the start and a report says so. A file that never was a
// journal (one line, no line break: a torn line to the framing) is refused whole, never cut: its
// text is the user's, not a crash's trace.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: First record
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

async function setup(t: TestContext) {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-first-record-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const sent = () => emulator.requests.filter((r) => r.path.endsWith('/update/vfs')).length;
  return { dir, file, env, sent, journal: join(dir, 'run.journal.jsonl') };
}

test('a file of one line that is no journal, given as --journal or --resume, is refused and left as it was: never cut as a torn record', async (t) => {
  const s = await setup(t);
  for (const text of ['my release notes, kept here', 'PROD_TOKEN=prod-token\n', '{"release":"26.11"}']) {
    const notes = join(s.dir, 'notes.txt');
    writeFileSync(notes, text);
    for (const flag of ['--journal', '--resume']) {
      const r = await runCli(['run', s.file, flag, notes], { env: s.env });
      assert.equal(r.code, 2, `${flag} ${text}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /notes\.txt:1: .*not a record of an enginectl journal/, r.stderr);
      assert.match(r.stderr, /nothing was run and the file is left as it was/);
      assert.equal(readFileSync(notes, 'utf8'), text, `${flag}: the file is the user's, untouched`);
    }
  }
  assert.equal(s.sent(), 0, 'nothing sent');
});

test('a journal whose run was killed while writing its first record: report says nothing was sent, and a resume runs from the start', async (t) => {
  const s = await setup(t);
  // A whole run's journal, to take its first record from as a kill mid-write would leave it.
  assert.equal((await runCli(['run', s.file, '--journal', s.journal], { env: s.env })).code, 0);
  assert.equal(s.sent(), 1);
  const first = readFileSync(s.journal, 'utf8').split('\n')[0]!;
  for (const cut of [3, 40, first.length - 5]) {
    writeFileSync(s.journal, first.slice(0, cut));
    const report = await runCli(['report', s.journal]);
    assert.equal(report.code, 2, report.stdout + report.stderr);
    assert.match(
      report.stderr,
      /killed while writing its first record, before anything was sent: there is no run to report/,
      report.stderr,
    );
    const sentBefore = s.sent();
    const resumed = await runCli(['run', s.file, '--resume', s.journal], { env: s.env });
    assert.equal(resumed.code, 0, `cut at ${cut}: ${resumed.stdout}${resumed.stderr}`);
    assert.match(
      resumed.stdout + resumed.stderr,
      /held no whole record: the run that wrote it was killed while writing its first, before anything was sent; this run starts from the beginning/,
    );
    assert.equal(s.sent(), sentBefore + 1, 'the update is sent: it never was under that journal');
    const after = await runCli(['report', s.journal]);
    assert.equal(after.code, 0, after.stdout + after.stderr);
  }
});
