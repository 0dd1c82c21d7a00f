// The write-ahead rule, watched from the outside: one timeline of what the journal's file system
// did (each write's records, each sync's start and end) and what the server received. Every
// write a matrix sends arrives only after its `send` record was written and a sync that started
// after that write had ended; every instance's answer is durable before its `end` is written.
// Parallel instances share syncs (group commit): fewer syncs than durable records.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
import { startEmulator } from '../helpers/emulator.ts';
import { RecordingLogger } from '../helpers/run.ts';

const PIPELINE = `version: 1
name: Write ahead
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
  - uses: monitoring/alerts
    with: { fail-on: critical }
  - uses: update/vfs
    matrix: { n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }
    max-parallel: 6
    with: { target: prod, files: [1001] }
`;

type Event =
  | { kind: 'write'; records: { t: string; key?: string }[] }
  | { kind: 'sync-start'; id: number }
  | { kind: 'sync-end'; id: number }
  | { kind: 'arrive'; method: string; path: string };

/** node:fs whose journal writes and syncs are told to the timeline. */
function watched(timeline: Event[]): JournalFs {
  let syncs = 0;
  return {
    ...fs,
    writeSync: ((fd: number, buffer: Buffer | string, offset: number, length: number) => {
      if (typeof buffer === 'string') return fs.writeSync(fd, buffer); // the lock file
      const n = fs.writeSync(fd, buffer, offset, length);
      const text = buffer.subarray(offset, offset + n).toString('utf8');
      timeline.push({
        kind: 'write',
        records: text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { t: string; key?: string }),
      });
      return n;
    }) as JournalFs['writeSync'],
    fdatasync: ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      const id = ++syncs;
      timeline.push({ kind: 'sync-start', id });
      fs.fdatasync(fd, (error) => {
        timeline.push({ kind: 'sync-end', id });
        callback(error);
      });
    }) as JournalFs['fdatasync'],
  };
}

test('a write leaves only once its record is on disk, and its answer is durable before its end: syncs are shared', async (t) => {
  const { url, emulator } = await startEmulator(t, { faults: [{ path: '/api/devops/v1/update/vfs', latencyMs: 20 }] });
  const timeline: Event[] = [];
  const push = emulator.requests.push.bind(emulator.requests);
  emulator.requests.push = (...records) => {
    for (const r of records) timeline.push({ kind: 'arrive', method: r.method, path: r.path });
    return push(...records);
  };
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-write-ahead-'));
  const file = join(dir, 'release.yml');
  writeFileSync(file, PIPELINE);
  const env = { ENGINE_URL: url, ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };
  const { pipeline, sources } = await loadPipelineFile(file, {
    readFile: (p: string) => fs.promises.readFile(p, 'utf8'),
    env,
  });
  const journal = await setUpJournal({
    path: join(dir, 'run.jsonl'),
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
    fs: watched(timeline),
    warn: (w) => assert.fail(w),
  });
  const done = await runAndReport(
    { pipeline, env, selection: EVERY_INSTANCE, reports: {}, journal: journal.spec },
    { masker: new Masker(), logger: new RecordingLogger(), signal: new AbortController().signal, clock: realClock() },
  );
  journal.spec.file.close();
  assert.equal(done.result.outcome, 'success', JSON.stringify(done.result.steps.map((s) => s.error)));

  // Walk the timeline: which records are written, which are durable (written before a sync that has ended).
  const written = new Map<string, number>(); // record -> index of its write
  const durable = new Set<string>();
  const syncStarts = new Map<number, number>();
  let sends = 0;
  let durableSends = 0;
  let arrivals = 0;
  let durableRecords = 0;
  const name = (r: { t: string; key?: string }) => `${r.t} ${r.key ?? ''}`;
  timeline.forEach((e, i) => {
    if (e.kind === 'write') {
      for (const r of e.records) {
        written.set(name(r), i);
        if (r.t === 'send') sends++;
        if (r.t === 'end' && written.has(`send ${r.key}`))
          assert.ok(durable.has(`answer ${r.key}`), `the answer of ${r.key} is durable before its end is written`);
        if (['send', 'answer', 'status'].includes(r.t)) durableRecords++;
      }
    } else if (e.kind === 'sync-start') syncStarts.set(e.id, i);
    else if (e.kind === 'sync-end') {
      const from = syncStarts.get(e.id)!;
      for (const [record, at] of written)
        if (at < from && !durable.has(record)) {
          durable.add(record);
          if (record.startsWith('send ')) durableSends++;
        }
    } else if (e.method === 'POST') {
      arrivals++;
      assert.ok(
        durableSends >= arrivals,
        `POST number ${arrivals} arrived with ${durableSends} send record(s) durable`,
      );
    }
  });
  assert.equal(arrivals, 12);
  assert.equal(sends, 12);
  const syncs = syncStarts.size;
  assert.ok(
    syncs < durableRecords,
    `${syncs} syncs for ${durableRecords} durable records: parallel instances share them`,
  );
});
