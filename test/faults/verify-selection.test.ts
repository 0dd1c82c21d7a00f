// verify's next step for a journal whose run was limited (--only, --skip: a sharded site's run is
// --only site=SITE) must resume it with that same selection. Before, its "then:" line dropped it:
// the resume it printed was refused (RESUME_REFUSED, the selection changed), and that refusal's
// --force ran every other instance of the pipeline (a sharded run's other sites, sent again).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Verify
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    name: "VFS \${{ matrix.site }} \${{ matrix.db }}"
    uses: update/vfs
    matrix: { site: [eu, us], db: [a, b] }
    with: { target: prod, files: [1001] }
`;

test("verify of a journal run with --only site=us --skip db=b: its then: line resumes with them, and that command settles the doubt without sending another instance's write", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-verify-selection-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journal = join(dir, 'run.journal.jsonl');
  const selection = ['--only', 'site=us', '--skip', 'db=b'];
  const ran = await runCli(['run', file, '--journal', journal, ...selection], { env });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  // What a kill right after the write left leaves: the journal cut after its send record.
  const all = readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const sent = all.findIndex((r) => r.t === 'send');
  writeFileSync(
    journal,
    all
      .slice(0, sent + 1)
      .map(({ crc: _crc, ...r }) => encodeLine(r))
      .join(''),
  );
  const verified = await runCli(['verify', journal], { env });
  assert.equal(verified.code, 1, verified.stdout + verified.stderr);
  const then = /^then: .*resume deciding: (enginectl run .*) --in-doubt skip \(applied\)/m.exec(verified.stdout);
  assert.ok(then, verified.stdout);
  assert.match(then[1]!, / --only site=us\b/);
  assert.match(then[1]!, / --skip db=b\b/);
  const before = emulator.requests.filter((r) => r.method === 'POST').length;
  const words = then[1]!.split(' ').slice(1);
  const settled = await runCli([...words, '--in-doubt', 'skip'], { env, cwd: dir });
  assert.equal(settled.code, 0, settled.stdout + settled.stderr);
  assert.equal(
    emulator.requests.filter((r) => r.method === 'POST').length,
    before,
    'nothing sent: the other instances are not selected',
  );
});
