// A prepared body (RunStore.prepare): created at the first key tried that does not exist, each
// try a create-only write; in a directory the body is written and synced once, and each try is a
// link, so a wave's log entry that lost the race for its key costs a link, not a file written and
// synced again. On a real directory, through the store's file system seam (counting what it does),
// and two workers' logs of one wave. (The same contract on RGW is in s3.test.ts.)
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';
import { StoreError } from '../../src/store/store.ts';
import { WaveLog } from '../../src/shard/wave-log.ts';
import { rejection } from '../helpers/emulator.ts';

/** A directory store whose file system counts the temporary files it makes and the syncs, and can fail a write. */
function countingStore(options: { failWrite?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'enginectl-prepared-'));
  const counts = { tempFiles: 0, fsyncs: 0, links: 0 };
  const seam = {
    ...fs,
    open: ((path: fs.PathLike, flags: string, ...rest: unknown[]) => {
      if (flags === 'wx') counts.tempFiles++;
      return (fs.open as (...a: unknown[]) => void)(path, flags, ...rest);
    }) as typeof fs.open,
    fsync: ((fd: number, done: fs.NoParamCallback) => (counts.fsyncs++, fs.fsync(fd, done))) as typeof fs.fsync,
    link: ((from: fs.PathLike, to: fs.PathLike, done: fs.NoParamCallback) => (
      counts.links++,
      fs.link(from, to, done)
    )) as typeof fs.link,
    writeFile: (options.failWrite
      ? (_fd: unknown, _body: unknown, done: fs.NoParamCallback) =>
          done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))
      : fs.writeFile) as typeof fs.writeFile,
  } as typeof fs;
  return { dir, counts, store: new DirectoryStore(pathToFileURL(dir).href, seam) };
}

const temporaries = (dir: string) => readdirSync(join(dir, '.tmp'));

test('a prepared body in a directory is created at the first key tried that does not exist, written and synced once; released, only its key is left', async () => {
  const { dir, counts, store } = countingStore();
  assert.equal(await store.create('log/00000001', Buffer.from('another worker')), true);
  const before = { ...counts };
  const prepared = await store.prepare('log/00000001', Buffer.from('mine'));
  assert.equal(await prepared.create('log/00000001'), false, 'the key existed: not created');
  assert.equal(String(await store.get('log/00000001')), 'another worker');
  assert.equal(await prepared.create('log/00000002'), true);
  await prepared.release();
  assert.equal(String(await store.get('log/00000002')), 'mine');
  assert.deepEqual(await store.list('log/'), ['log/00000001', 'log/00000002']);
  assert.deepEqual(temporaries(dir), []);
  // Two tries: one file written and synced, two links (and the new key's directory synced).
  assert.deepEqual(
    { tempFiles: counts.tempFiles - before.tempFiles, links: counts.links - before.links },
    { tempFiles: 1, links: 2 },
  );
  assert.equal(counts.fsyncs - before.fsyncs, 2, 'the file once, the directory of the key created once');
});

test('a prepared body that cannot be written (ENOSPC) fails with STORE_FAILED naming its key; no temporary file is left; a key refused writes nothing', async () => {
  const { dir, store } = countingStore({ failWrite: true });
  const error = await rejection(store.prepare('log/00000001', Buffer.from('mine')));
  assert.ok(error instanceof StoreError);
  assert.equal(error.code, 'STORE_FAILED');
  assert.match(error.message, /cannot write log\/00000001 \(ENOSPC\)/);
  assert.deepEqual(temporaries(dir), []);
  const refused = await rejection(store.prepare('log/../x', Buffer.from('mine')));
  assert.ok(refused instanceof StoreError);
  assert.match(refused.message, /not a key of the run store/);
  assert.deepEqual(readdirSync(dir), ['.tmp']);
});

test("two workers' logs of one wave: the one that judged on a log grown since loses the key, reads again, judges again and takes the next key with the entry it wrote once", async () => {
  const { dir, counts, store } = countingStore();
  const a = new WaveLog(store, 'r1', 1);
  const b = new WaveLog(store, 'r1', 1);
  const start = (site: string, worker: number) =>
    ({ kind: 'start', site, worker, holder: `h${worker}`, siteRun: `run-${site}`, at: 1 }) as const;
  await a.read();
  assert.equal(await b.append(start('site-1', 1), (s) => !s.owners.has('site-1')), true);
  const before = { ...counts };
  const judged: number[] = [];
  const taken = await a.append(
    start('site-2', 0),
    (s) => (judged.push(s.seq), !s.owners.has('site-2')),
    true, // on the log a read before b's entry: its first try is key 1, b's
  );
  assert.equal(taken, true);
  assert.deepEqual(
    judged,
    [0, 0, 1],
    'judged on the log it had read, again once its entry was written, then on the log read again after the key was lost',
  );
  assert.deepEqual(
    (await new WaveLog(store, 'r1', 1).read()).entries.map((e) => ('site' in e ? [e.site, e.worker] : [e.kind])),
    [
      ['site-1', 1],
      ['site-2', 0],
    ],
  );
  assert.deepEqual(
    { tempFiles: counts.tempFiles - before.tempFiles, links: counts.links - before.links },
    { tempFiles: 1, links: 2 },
  );
  // An entry that no longer holds when judged again is not appended, and leaves nothing behind.
  assert.equal(await a.append(start('site-1', 0), (s) => !s.owners.has('site-1')), false);
  assert.equal((await a.read()).seq, 2);
  assert.deepEqual(temporaries(dir), []);
});

test("a worker's four lanes claiming the same site at once: one entry appended, and only its file written", async () => {
  const { dir, counts, store } = countingStore();
  await store.create('warm', Buffer.from('the directories made'));
  const log = new WaveLog(store, 'r1', 1);
  await log.read();
  const before = { ...counts };
  const claimed = await Promise.all(
    [0, 1, 2, 3].map((lane) =>
      log.append(
        { kind: 'start', site: 'site-1', worker: 0, holder: 'h0', siteRun: `run-${lane}`, at: 1 },
        (s) => !s.owners.has('site-1'),
        true,
      ),
    ),
  );
  assert.deepEqual(claimed, [true, false, false, false]);
  assert.deepEqual(
    { tempFiles: counts.tempFiles - before.tempFiles, fsyncs: counts.fsyncs - before.fsyncs },
    { tempFiles: 1, fsyncs: 2 },
    'one file written and synced, and the directory of its key',
  );
  assert.deepEqual(temporaries(dir), []);
});
