// How the directory store reads a key: in line on this machine's own disk (a worker of a sharded
// run reads every entry of its wave's log), through the thread pool on a share, so that a share
// that hangs holds the read and never the process: its timers (a lease's heartbeat, a call's
// deadline) and signals go on.
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';

const NFS = 0x6969;

/** node:fs with its reads counted, statfs answering `type` when given, and reads held while `hold` is set. */
function seam(type?: number) {
  const counts = { inLine: 0, pooled: 0 };
  const held: (() => void)[] = [];
  let hold = false;
  const fs = {
    ...nodeFs,
    statfsSync: ((path: string) => {
      const real = nodeFs.statfsSync(path);
      return type === undefined ? real : Object.assign(real, { type });
    }) as typeof nodeFs.statfsSync,
    readFileSync: ((...args: Parameters<typeof nodeFs.readFileSync>) => {
      counts.inLine++;
      return nodeFs.readFileSync(...args);
    }) as typeof nodeFs.readFileSync,
    readFile: ((path: string, done: (error: NodeJS.ErrnoException | null, data?: Buffer) => void) => {
      counts.pooled++;
      const read = () => nodeFs.readFile(path, done);
      if (hold) held.push(read);
      else read();
    }) as unknown as typeof nodeFs.readFile,
  };
  return {
    fs,
    counts,
    hang: () => (hold = true),
    release: () => ((hold = false), held.splice(0).forEach((r) => r())),
  };
}

const storeOn = (s: ReturnType<typeof seam>) =>
  new DirectoryStore(pathToFileURL(mkdtempSync(join(tmpdir(), 'enginectl-reads-'))).href, s.fs as typeof nodeFs);

test("a directory on this machine's disk (Linux): a key is read in line, an absent one is undefined", async () => {
  const s = seam();
  const store = storeOn(s);
  assert.equal(await store.create('waves/1/log/00000001', Buffer.from('{"a":1}')), true);
  assert.equal(String(await store.get('waves/1/log/00000001')), '{"a":1}');
  assert.equal(await store.get('waves/1/log/00000002'), undefined);
  assert.deepEqual(s.counts, { inLine: 2, pooled: 0 });
});

test('a directory on a share (NFS) whose read hangs: the read waits, the process does not (a timer fires meanwhile), and the key is read once the share answers', async () => {
  const s = seam(NFS);
  const store = storeOn(s);
  assert.equal(await store.create('waves/1/log/00000001', Buffer.from('{"a":1}')), true);
  s.hang();
  let got: Buffer | undefined | 'pending' = 'pending';
  const reading = store.get('waves/1/log/00000001').then((b) => (got = b));
  let ticks = 0;
  for (let i = 0; i < 3; i++) {
    await sleep(1);
    ticks++;
  }
  assert.equal(ticks, 3, "the event loop ran while the share's read hung");
  assert.equal(got, 'pending');
  s.release();
  await reading;
  assert.equal(String(got), '{"a":1}');
  assert.deepEqual(s.counts, { inLine: 0, pooled: 1 });
});
