// An update's report is both the step's `report` output and a field of the server's answer: the
// journal writes it once (a 50 MiB report made a 101 MiB journal and a 765 MiB peak), and gives
// it back whole to every reader: `report JOURNAL`, and a resume whose later step reads the
// carried output.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';

const PIPELINE = `version: 1
name: Report once
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001, 1004] }
  - id: sync
    uses: replication/sync
  - uses: assert
    with: { that: "\${{ contains(steps.vfs.outputs.report, '# VFS update of PROD') }}" }
`;

interface Step {
  id: string | null;
  outcome: string;
  resume: string | null;
  outputs: { report?: string };
  result: { report?: string } | null;
}

test(
  'the journal holds an update report once; report JOURNAL and a resume give it back whole',
  { timeout: 120_000 },
  async (t) => {
    const { url, emulator } = await startEmulator(t);
    // The sync fails once: the first run stops after the update, the resume carries the update.
    emulator.faults.add({ method: 'POST', path: '/api/devops/v1/replication/sync', status: 400, times: 1 });
    const dir = mkdtempSync(join(tmpdir(), 'enginectl-journal-size-'));
    const file = join(dir, 'release.yml');
    writeFileSync(file, PIPELINE);
    const journal = join(dir, 'run.journal.jsonl');
    const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };

    const first = await runCliProcess(['run', file, '--journal', journal, '--report-json', join(dir, 'first.json')], {
      env,
    });
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const vfsFirst = (JSON.parse(readFileSync(join(dir, 'first.json'), 'utf8')) as { steps: Step[] }).steps.find(
      (s) => s.id === 'vfs',
    )!;
    const report = vfsFirst.outputs.report!;
    assert.equal(report, vfsFirst.result!.report, 'the output is the answer field');
    assert.ok(report.length > 256);
    // Once in the journal, as JSON text.
    const escaped = JSON.stringify(report).slice(1, -1);
    assert.equal(readFileSync(journal, 'utf8').split(escaped).length - 1, 1);

    const rendered = await runCliProcess(['report', journal, '--report-json', join(dir, 'journal.json')], { env });
    assert.equal(rendered.code, 1, rendered.stderr);
    const vfsJournal = (JSON.parse(readFileSync(join(dir, 'journal.json'), 'utf8')) as { steps: Step[] }).steps.find(
      (s) => s.id === 'vfs',
    )!;
    assert.equal(vfsJournal.outputs.report, report);
    assert.equal(vfsJournal.result!.report, report);

    const resumed = await runCliProcess(
      ['run', file, '--resume', journal, '--report-json', join(dir, 'resumed.json')],
      { env },
    );
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    const steps = (JSON.parse(readFileSync(join(dir, 'resumed.json'), 'utf8')) as { steps: Step[] }).steps;
    const vfs = steps.find((s) => s.id === 'vfs')!;
    assert.equal(vfs.resume, 'earlier-run');
    assert.equal(vfs.outputs.report, report, 'the carried output is the whole report');
    assert.deepEqual(
      steps.map((s) => s.outcome),
      ['success', 'success', 'success'],
      'the assert read the carried report',
    );
    assert.equal(
      emulator.requests.filter((r) => r.path.endsWith('/update/vfs')).length,
      1,
      'the update was not sent again',
    );
  },
);
