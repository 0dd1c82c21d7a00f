// An unsealed journal is trusted as the file is (docs/reliability.md), but a resume must not act on
// records no enginectl writes in that order: each of these edits made the resume forget a write left
// in doubt and send it again. Before, a status record with no send before it was dropped without a
// word (the write read as never sent), an end record of other inputs after a send ended the
// instance ("its inputs changed: it runs again"), and a fresh run record after a release that left a
// call in doubt began a new release (enginectl refuses a new run on open doubts, so none writes it).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Edited
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
`;

/** A run whose write was applied and answered by a gateway's 504: in doubt, its journal's lines. */
async function inDoubt(t: TestContext) {
  const { url, emulator } = await startEmulator(t);
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-edited-journal-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journal = join(dir, 'run.journal.jsonl');
  const ran = await runCli(['run', file, '--journal', journal], { env });
  assert.equal(ran.code, 1, ran.stdout + ran.stderr);
  // As a kill right after the gateway's status line left it: no answer, no end.
  const all = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
  const kind = (l: string) => (JSON.parse(l) as { t: string }).t;
  const lines = all.slice(0, all.findIndex((l) => kind(l) === 'status') + 1);
  const end = JSON.parse(all.find((l) => kind(l) === 'end')!) as Record<string, unknown>;
  const updates = () => emulator.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/update/vfs')).length;
  assert.equal(updates(), 1);
  const resume = async (edited: string[]) => {
    writeFileSync(journal, `${edited.join('\n')}\n`);
    return runCli(['run', file, '--resume', journal], { env });
  };
  return { lines, end, resume, updates, kind };
}

test('a status record with no send before it (the send removed): the resume refuses the journal (BAD_JOURNAL), nothing sent', async (t) => {
  const s = await inDoubt(t);
  const r = await s.resume(s.lines.filter((l) => s.kind(l) !== 'send'));
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /code: BAD_JOURNAL/);
  assert.match(r.stderr, /no send record before it/);
  assert.equal(s.updates(), 1, 'not sent again');
});

test('an end record of other inputs after the send (pasted from another run): the resume refuses the journal (BAD_JOURNAL), nothing sent', async (t) => {
  const s = await inDoubt(t);
  // Another run's end of the instance: a success, of other inputs.
  const { crc: _crc, run, ...rest } = s.end as { crc: string; run: Record<string, unknown> };
  const { inDoubt: _doubt, error: _error, ...succeeded } = run;
  const other = { ...rest, run: { ...succeeded, outcome: 'success' }, inputs: `hmac-sha256:${'0'.repeat(64)}` };
  const r = await s.resume([...s.lines, encodeLine(other).trimEnd()]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /code: BAD_JOURNAL/);
  assert.match(r.stderr, /inputs/);
  assert.equal(s.updates(), 1, 'not sent again');
});

test('a fresh run record after a release that left a call in doubt: the resume refuses the journal (BAD_JOURNAL), nothing sent', async (t) => {
  const s = await inDoubt(t);
  const r = await s.resume([...s.lines, s.lines[0]!]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /code: BAD_JOURNAL/);
  assert.match(r.stderr, /in doubt/);
  assert.equal(s.updates(), 1, 'not sent again');
});

test('two fresh run records after a release that left a call in doubt: the resume refuses the journal (BAD_JOURNAL), nothing sent', async (t) => {
  const s = await inDoubt(t);
  const r = await s.resume([...s.lines, s.lines[0]!, s.lines[0]!]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /code: BAD_JOURNAL/);
  assert.equal(s.updates(), 1, 'not sent again');
});
