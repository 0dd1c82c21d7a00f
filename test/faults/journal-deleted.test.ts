// A journal deleted while its run writes it (a cleanup job, an operator's rm): the run went on
// writing into a file no path names, and ended with nothing on disk to resume or verify from. The
// journal is the run's source of truth, written ahead: once it is gone, the run stops before its
// next call, as when a record cannot be written, and says so.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('a journal deleted mid-run stops the run before its next call (JOURNAL_WRITE_FAILED), every report written', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-deleted-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const journal = join(dir, 'run.journal.jsonl');
  const writes: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    writes.push(`${req.method} ${req.url}`);
    // The first write is in: its record is on disk. The journal is deleted before it is answered.
    if (writes.length === 1) unlinkSync(journal);
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => (server.closeAllConnections(), server.close()));
  const file = join(dir, 'p.yml');
  writeFileSync(
    file,
    'version: 1\nname: p\nsteps:\n  - id: a\n    uses: transaction-log/clear\n  - id: b\n    uses: transaction-log/clear\n',
  );
  const report = join(dir, 'r.json');
  const r = await runCli(['run', file, '--journal', journal, '--report-json', report], {
    env: {
      ENGINE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      ENGINE_USERNAME: 'admin',
      ENGINE_PASSWORD: 'admin',
    },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.deepEqual(writes, ['POST /api/devops/v1/transaction-log/clear'], 'nothing after the journal was gone');
  assert.match(r.stdout + r.stderr, /journal .*run\.journal\.jsonl was deleted while the run wrote it/);
  assert.ok(existsSync(report), 'the report is written');
});
