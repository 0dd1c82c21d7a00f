// A run killed right after a write left (its journal ends at the write's send record: no answer,
// no end), resumed with the operator's word that it was applied (--in-doubt skip) or verify's
// (the target read back: applied), and then resumed again: the second resume carries the write as
// the first did, and never sends it again. Found by test/fuzz/fate-paths.test.ts (a shard worker
// killed mid-call, its site taken over and verified applied, the site's run then resumed): before,
// the first resume's end record of the carried write digested the inputs of an instance the journal
// never saw end (none), so the next resume said "its inputs changed since the journal's run" and
// sent the write a second time, with no decision to.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeLine } from '../../src/journal/frame.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Killed release
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: update/system
    with: { target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }
  - uses: monitoring/alerts
    with: { fail-on: none }
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

for (const decision of ['skip', 'verify'] as const)
  test(`a write killed in flight, resumed with --in-doubt ${decision} (applied), then resumed again: the write is never sent a second time`, async (t) => {
    // Monitoring shows the update at once: verify reads it applied.
    const { url, emulator } = await startEmulator(t, { monitoringRefreshMs: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-killed-resumed-'));
    const file = join(dir, 'release.yml');
    writeFileSync(file, PIPELINE);
    const env = { ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token', ENGINE_URL: url };
    const journal = join(dir, 'run.journal.jsonl');
    const applied = () => emulator.requests.filter((r) => r.applied && r.path.endsWith('/update/system')).length;

    const run = await runCli(['run', file, '--journal', journal], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    cutAfterLastSend(journal);
    assert.equal(applied(), 1);

    const first = await runCli(['run', file, '--resume', journal, '--in-doubt', decision], { env });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(applied(), 1, `the first resume sends nothing: ${first.stdout}${first.stderr}`);
    const second = await runCli(['run', file, '--resume', journal], { env });
    assert.equal(applied(), 1, `the second resume sends nothing: ${second.stdout}${second.stderr}`);
    assert.doesNotMatch(second.stdout + second.stderr, /its inputs changed/);
    assert.equal(second.code, 0, second.stdout + second.stderr);
  });
