// A signal that comes while a write's record is being made durable (its sync to disk, or its put
// in a run store, in flight): the record is kept, but the request never leaves. Before, the run
// still handed the request to the HTTP client with the signal already aborted, which sent nothing,
// and every report and the journal called the write "sent; the server may have applied it" (in
// doubt), so the resume refused to go on without the operator's word about a write the server
// never saw. The file system is the journal's seam (its sync held until released); the run is
// the real composition (journal set-up, runner, reports) against the emulator over HTTP.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setUpJournal } from '../../src/app/journal-setup.ts';
import { loadPipelineFile } from '../../src/app/pipeline-input.ts';
import { runAndReport } from '../../src/app/run.ts';
import { realClock } from '../../src/app/clock.ts';
import { EVERY_INSTANCE } from '../../src/pipeline/selection.ts';
import type { JournalFs } from '../../src/journal/file.ts';
import { Masker } from '../../src/runner/masker.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { RecordingLogger } from '../helpers/run.ts';

const PIPELINE = `version: 1
name: Cancelled as its write is recorded
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: clear
    uses: transaction-log/clear
`;

/** node:fs whose first sync after the `nth` write's `send` record is held until `release()`; `held` settles once it is. */
function syncHeldAtSend(nth = 1) {
  let sends = 0;
  let armed = false;
  let release: (() => void) | undefined;
  let told: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (told = resolve));
  const journalFs: JournalFs = {
    ...fs,
    writeSync: ((fd: number, buffer: Buffer | string, offset: number, length: number) => {
      if (typeof buffer === 'string') return fs.writeSync(fd, buffer);
      if (buffer.subarray(offset, offset + length).includes('"t":"send"')) armed = ++sends >= nth;
      return fs.writeSync(fd, buffer, offset, length);
    }) as JournalFs['writeSync'],
    fdatasync: ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      if (!armed || release) return fs.fdatasync(fd, callback);
      release = () => fs.fdatasync(fd, callback);
      told();
    }) as JournalFs['fdatasync'],
  };
  return { journalFs, held, release: () => release!() };
}

test("a signal while a write's record is synced: the request never leaves, and no report nor the journal calls it sent or in doubt; resume sends it without asking", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-cancel-record-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journalPath = join(dir, 'run.journal.jsonl');
  const { pipeline, sources } = await loadPipelineFile(file, {
    readFile: (p: string) => fs.promises.readFile(p, 'utf8'),
    env,
  });
  const sync = syncHeldAtSend();
  const journal = await setUpJournal({
    path: journalPath,
    resume: false,
    force: false,
    inDoubt: undefined,
    pipeline,
    sources,
    vars: {},
    selection: EVERY_INSTANCE,
    env,
    command: 'test',
    now: Date.now(),
    fs: sync.journalFs,
    warn: (w) => assert.fail(w),
  });
  const reports = { json: join(dir, 'r.json'), junit: join(dir, 'r.xml') };
  const stop = new AbortController();
  const running = runAndReport(
    { pipeline, env, selection: EVERY_INSTANCE, reports, journal: journal.spec },
    { masker: new Masker(), logger: new RecordingLogger(), signal: stop.signal, clock: realClock() },
  );
  // The update's record is being synced: SIGTERM now, then the sync completes.
  await sync.held;
  stop.abort(new Error('received SIGTERM'));
  sync.release();
  const done = await running;
  journal.spec.file.close();

  assert.equal(emulator.requests.filter((r) => r.method === 'POST').length, 0, 'the update never left');
  assert.deepEqual(done.written.sort(), Object.values(reports).sort(), 'every report is written');
  const json = JSON.parse(readFileSync(reports.json, 'utf8')) as {
    outcome: string;
    steps: { id: string; outcome: string; inDoubt?: unknown; error: { code: string; message: string } | null }[];
  };
  assert.equal(json.outcome, 'cancelled');
  assert.deepEqual(
    json.steps.map((s) => [s.id, s.outcome, s.error?.code]),
    [
      ['vfs', 'cancelled', 'CANCELLED'],
      ['clear', 'cancelled', 'CANCELLED'],
    ],
    JSON.stringify(json.steps[0]?.error),
  );
  assert.doesNotMatch(readFileSync(reports.junit, 'utf8'), /may have applied|in doubt/);

  // The journal read back says the same: nothing in doubt, and a resume sends the update once.
  const report = await runCli(['report', journalPath]);
  assert.doesNotMatch(report.stdout, /in doubt|may have applied/, report.stdout);
  const resumed = await runCli(['run', file, '--resume', journalPath], { env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(emulator.requests.filter((r) => r.path.endsWith('/update/vfs')).length, 1, 'sent once, by the resume');
});

test("a signal while the record of a write the pipeline's in-doubt: retry sends again is synced: it never leaves, and no report says the pipeline sent it again", async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-cancel-retry-'));
  const file = join(dir, 'release.yml');
  writeFileSync(
    file,
    PIPELINE.replace(
      '    uses: update/vfs\n',
      '    uses: update/vfs\n    retry: { attempts: 2, delay: 1ms, in-doubt: retry }\n',
    ),
  );
  // The first attempt: a gateway's 504 after the server applied it (in doubt).
  emulator.faults.add({ method: 'POST', path: '/api/devops/v1/update/vfs', gateway: 504, times: 1 });
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journalPath = join(dir, 'run.journal.jsonl');
  const { pipeline, sources } = await loadPipelineFile(file, {
    readFile: (p: string) => fs.promises.readFile(p, 'utf8'),
    env,
  });
  const sync = syncHeldAtSend(2);
  const journal = await setUpJournal({
    path: journalPath,
    resume: false,
    force: false,
    inDoubt: undefined,
    pipeline,
    sources,
    vars: {},
    selection: EVERY_INSTANCE,
    env,
    command: 'test',
    now: Date.now(),
    fs: sync.journalFs,
    warn: (w) => assert.fail(w),
  });
  const reports = { json: join(dir, 'r.json'), summary: join(dir, 'r.md') };
  const stop = new AbortController();
  const running = runAndReport(
    { pipeline, env, selection: EVERY_INSTANCE, reports, journal: journal.spec },
    { masker: new Masker(), logger: new RecordingLogger(), signal: stop.signal, clock: realClock() },
  );
  // The second attempt's record is being synced: SIGTERM now, then the sync completes.
  await sync.held;
  stop.abort(new Error('received SIGTERM'));
  sync.release();
  await running;
  journal.spec.file.close();

  assert.equal(emulator.requests.filter((r) => r.method === 'POST').length, 1, 'the second attempt never left');
  const json = JSON.parse(readFileSync(reports.json, 'utf8')) as {
    steps: { id: string; inDoubt: { status?: number } | null; decision: unknown }[];
  };
  const vfs = json.steps.find((s) => s.id === 'vfs')!;
  assert.equal(vfs.inDoubt?.status, 504, 'in doubt for the first attempt');
  assert.equal(vfs.decision, null, 'nothing was sent again: no decision to send it again was acted on');
  assert.doesNotMatch(readFileSync(reports.summary, 'utf8'), /sent again/);
  const report = await runCli(['report', journalPath, '--report-json', join(dir, 'read.json')]);
  assert.equal(report.code, 1, report.stdout + report.stderr);
  const read = (JSON.parse(readFileSync(join(dir, 'read.json'), 'utf8')) as typeof json).steps.find(
    (s) => s.id === 'vfs',
  )!;
  assert.equal(read.decision, null, 'the journal reads the same');
});
