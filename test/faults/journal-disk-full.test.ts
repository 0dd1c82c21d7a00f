// A journal on a full disk: the write that does not fit is cut short and the next one fails
// (ENOSPC), as on a small tmpfs. The file system is the journal's seam; the run is the real
// composition (journal set-up, runner, reports) against the emulator over HTTP. The run stops
// before its next call, with a code of its own (exit 1), every report is still written, and a
// resume from that journal never sends the answered write again.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setUpJournal } from '../../src/app/journal-setup.ts';
import { loadPipelineFile } from '../../src/app/pipeline-input.ts';
import { runAndReport } from '../../src/app/run.ts';
import { realClock } from '../../src/app/clock.ts';
import { EVERY_INSTANCE } from '../../src/pipeline/selection.ts';
import type { JournalFs } from '../../src/journal/file.ts';
import type { AtomicFs } from '../../src/app/atomic-write.ts';
import { Masker } from '../../src/runner/masker.ts';
import { runCli } from '../helpers/cli.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { RecordingLogger } from '../helpers/run.ts';

const PIPELINE = `version: 1
name: Release on a full disk
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - id: clear
    uses: transaction-log/clear
  - id: vfs
    uses: update/vfs
    with: { target: prod, files: [1001] }
  - id: sync
    uses: replication/sync
`;

/** node:fs with room for `room` more bytes in the journal: a short write, then ENOSPC. */
function fullAfter(room: number): JournalFs {
  let left = room;
  return {
    ...fs,
    writeSync: ((fd: number, buffer: Buffer | string, offset: number, length: number) => {
      if (typeof buffer === 'string') return fs.writeSync(fd, buffer);
      if (left <= 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      const n = Math.min(length, left);
      left -= n;
      return fs.writeSync(fd, buffer, offset, n);
    }) as JournalFs['writeSync'],
  };
}

test('a full disk tears the journal mid-run: the run stops before its next call (JOURNAL_WRITE_FAILED), every report is written, and resume never re-sends the answered write', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-full-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const journalPath = join(dir, 'run.journal.jsonl');
  const io = { readFile: (p: string) => fs.promises.readFile(p, 'utf8'), env };
  const { pipeline, sources } = await loadPipelineFile(file, io);

  // Measure the journal a whole run writes, then give the disk room up to the middle of the vfs update's end record.
  const probe = join(dir, 'probe.jsonl');
  const whole = await setUpJournal({
    path: probe,
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
    warn: (w) => assert.fail(w),
  });
  await runAndReport(
    { pipeline, env, selection: EVERY_INSTANCE, reports: {}, journal: whole.spec },
    { masker: new Masker(), logger: new RecordingLogger(), signal: new AbortController().signal, clock: realClock() },
  );
  whole.spec.file.close();
  const text = readFileSync(probe, 'utf8');
  const end = text.indexOf('{"t":"end","key":"id:vfs"');
  assert.ok(end > 0);
  const room = end + 40;
  emulator.requests.length = 0;

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
    fs: fullAfter(room),
    warn: (w) => assert.fail(w),
  });
  const reports = {
    json: join(dir, 'r.json'),
    junit: join(dir, 'r.xml'),
    summary: join(dir, 'r.md'),
    html: join(dir, 'r.html'),
  };
  const done = await runAndReport(
    { pipeline, env, selection: EVERY_INSTANCE, reports, journal: journal.spec },
    { masker: new Masker(), logger: new RecordingLogger(), signal: new AbortController().signal, clock: realClock() },
  );
  journal.spec.file.close();
  assert.equal(done.halted?.code, 'JOURNAL_WRITE_FAILED');
  assert.equal(done.halted?.exitCode, 1);
  assert.match(done.halted!.message, /a record could not be written \(ENOSPC\); the run stopped before its next call/);
  assert.deepEqual(done.written.sort(), Object.values(reports).sort(), 'every report is written');
  for (const path of Object.values(reports)) assert.ok(existsSync(path));
  assert.equal(
    emulator.requests.filter((r) => r.path.endsWith('/replication/sync')).length,
    0,
    'no call after the failed write',
  );
  const steps = JSON.parse(readFileSync(reports.json, 'utf8')) as {
    outcome: string;
    steps: { id: string; outcome: string; error: { message: string } | null }[];
  };
  assert.equal(steps.outcome, 'failure');
  assert.deepEqual(
    steps.steps.map((s) => [s.id, s.outcome]),
    [
      ['clear', 'success'],
      ['vfs', 'success'],
      ['sync', 'cancelled'],
    ],
  );
  assert.match(steps.steps[2]!.error!.message, /the run stopped: journal .* could not be written/);

  // The torn end record is cut off; the update answered 200 is in doubt, never "not finished".
  const report = await runCli(['report', journalPath]);
  assert.equal(report.code, 1);
  assert.match(report.stdout, /in doubt/);
  const resumed = await runCli(['run', file, '--resume', journalPath], { env });
  assert.equal(resumed.code, 2, resumed.stdout);
  assert.match(
    resumed.stderr,
    /in doubt: "VFS update prod" \(POST \/api\/devops\/v1\/update\/vfs, answered 200; its step did not end in success\)/,
  );
  assert.equal(
    emulator.requests.filter((r) => r.path.endsWith('/update/vfs')).length,
    1,
    'the answered update is not sent again',
  );
});

test('a full disk never leaves a truncated report: each is written whole beside its path and renamed, or the earlier file stays', async (t) => {
  const { url } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-full-reports-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const { pipeline } = await loadPipelineFile(file, { readFile: (p: string) => fs.promises.readFile(p, 'utf8'), env });
  const reports = {
    json: join(dir, 'r.json'),
    junit: join(dir, 'r.xml'),
    summary: join(dir, 'r.md'),
    html: join(dir, 'r.html'),
  };
  for (const path of Object.values(reports)) writeFileSync(path, "the earlier run's report");
  // Room for 1 KiB in all: the first report's first write fits, nothing after it does.
  let room = 1024;
  const full: AtomicFs = {
    ...fs.promises,
    open: (async (path: string, flags: string, mode: number) => {
      const handle = await fs.promises.open(path, flags, mode);
      return Object.assign(Object.create(handle) as fs.promises.FileHandle, {
        writeFile: async (data: string) => {
          const bytes = Buffer.byteLength(data);
          if (bytes > room) {
            await handle.writeFile(Buffer.from(data).subarray(0, Math.max(room, 0)));
            room = 0;
            throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
          }
          room -= bytes;
          return handle.writeFile(data);
        },
        close: () => handle.close(),
      });
    }) as AtomicFs['open'],
  };
  const done = await runAndReport(
    { pipeline, env, selection: EVERY_INSTANCE, reports },
    {
      masker: new Masker(),
      logger: new RecordingLogger(),
      signal: new AbortController().signal,
      clock: realClock(),
      reportFs: full,
    },
  );
  assert.equal(done.result.outcome, 'success');
  assert.deepEqual(done.written, [], 'no report fitted');
  assert.equal(done.failed.length, 4);
  for (const f of done.failed) assert.match(f, /ENOSPC$/);
  for (const path of Object.values(reports))
    assert.equal(readFileSync(path, 'utf8'), "the earlier run's report", `${path}: left as it was, never truncated`);
  assert.deepEqual(
    fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
    'no temporary file is left',
  );
});

// A journal whose first record never reached the disk holds nothing to resume from (resume refuses
// an empty file: "not a journal"): its hint says to run again, not to resume.
test('a full disk before the journal holds a record: nothing was sent, and the hint says to run again, not to resume', async (t) => {
  const { url, emulator } = await startEmulator(t);
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-full-first-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const io = { readFile: (p: string) => fs.promises.readFile(p, 'utf8'), env };
  const { pipeline, sources } = await loadPipelineFile(file, io);
  const journalPath = join(dir, 'run.journal.jsonl');
  let halted: { code: string; hint?: string | undefined; message: string } | undefined;
  try {
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
      fs: fullAfter(0),
      warn: (w) => assert.fail(w),
    });
    const done = await runAndReport(
      { pipeline, env, selection: EVERY_INSTANCE, reports: {}, journal: journal.spec },
      { masker: new Masker(), logger: new RecordingLogger(), signal: new AbortController().signal, clock: realClock() },
    );
    journal.spec.file.close();
    halted = done.halted as typeof halted;
  } catch (error) {
    halted = error as typeof halted;
  }
  assert.equal(halted?.code, 'JOURNAL_WRITE_FAILED', String(halted?.message));
  assert.equal(readFileSync(journalPath, 'utf8'), '', 'the journal holds nothing');
  assert.deepEqual(
    emulator.requests.filter((r) => r.method !== 'GET'),
    [],
    'no write was sent',
  );
  assert.doesNotMatch(String(halted?.hint), /resume/);
  assert.match(String(halted?.hint), /run the pipeline again/);
});
