// How the directory store reads a key: in line on this machine's own disk (a worker of a sharded
// run reads every entry of its wave's log), through the thread pool on a share, so that a share
// that hangs holds the read and never the process: its timers (a lease's heartbeat, a call's
// deadline) and signals go on. Whether the disk is local is asked once, through the pool too.
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { DirectoryStore } from '../../src/store/directory.ts';

const EXT4 = 0xef53n;
const NFS = 0x6969n;
/** Btrfs as a 32-bit system's signed f_type comes to Node: widened to 64 bits. */
const BTRFS_ON_32_BITS = 0xffffffff9123683en;

type Done = (error: NodeJS.ErrnoException | null, value?: unknown) => void;

/** node:fs with statfs answering `type`, its calls and reads counted, and statfs or reads held while `hold` names them. */
function seam(type: bigint) {
  const counts = { statfs: 0, inLine: 0, pooled: 0 };
  const held: (() => void)[] = [];
  const hold = { statfs: false, read: false };
  const later = (what: keyof typeof hold, act: () => void) => (hold[what] ? held.push(act) : act());
  const fs = {
    ...nodeFs,
    statfs: (path: string, _options: unknown, done: Done) => {
      counts.statfs++;
      later('statfs', () =>
        nodeFs.statfs(path, { bigint: true }, (error, stats) => done(error, stats && Object.assign(stats, { type }))),
      );
    },
    // A key is opened by its flags as a number (a directory, to be synced, and a temporary file by letters).
    openSync: (...args: Parameters<typeof nodeFs.openSync>) => {
      if (typeof args[1] === 'number') counts.inLine++;
      return nodeFs.openSync(...args);
    },
    open: (path: string, flags: string | number, ...rest: unknown[]) => {
      if (typeof flags !== 'number') return (nodeFs.open as (...a: unknown[]) => void)(path, flags, ...rest);
      counts.pooled++;
      later('read', () => nodeFs.open(path, flags, rest[0] as Done));
    },
  };
  return {
    fs: fs as unknown as typeof nodeFs,
    counts,
    hang: (what: keyof typeof hold) => (hold[what] = true),
    release: () => ((hold.statfs = hold.read = false), held.splice(0).forEach((act) => act())),
  };
}

const storeIn = (dir: string, s: ReturnType<typeof seam>) => new DirectoryStore(pathToFileURL(dir).href, s.fs);
const storeOn = (s: ReturnType<typeof seam>) => storeIn(mkdtempSync(join(tmpdir(), 'enginectl-reads-')), s);

for (const [name, type] of [
  ['ext4', EXT4],
  ['Btrfs on a 32-bit system', BTRFS_ON_32_BITS],
] as const)
  test(`a directory on this machine's disk (${name}): a key is read in line, an absent one is undefined, the disk asked once`, async () => {
    const s = seam(type);
    const store = storeOn(s);
    assert.equal(await store.create('waves/1/log/00000001', Buffer.from('{"a":1}')), true);
    assert.equal(String(await store.get('waves/1/log/00000001')), '{"a":1}');
    assert.equal(await store.get('waves/1/log/00000002'), undefined);
    assert.equal(String(await store.get('waves/1/log/00000001')), '{"a":1}');
    assert.deepEqual(s.counts, { statfs: 1, inLine: 3, pooled: 0 });
  });

test('a directory not there yet: read through the pool, asked again once it exists, then in line', async () => {
  const s = seam(EXT4);
  const dir = join(mkdtempSync(join(tmpdir(), 'enginectl-reads-')), 'store');
  const store = storeIn(dir, s);
  assert.equal(await store.get('waves/1/log/00000001'), undefined);
  assert.deepEqual(s.counts, { statfs: 1, inLine: 0, pooled: 1 });
  mkdirSync(dir); // the share mounted
  assert.equal(await store.create('waves/1/log/00000001', Buffer.from('{"a":1}')), true);
  assert.equal(String(await store.get('waves/1/log/00000001')), '{"a":1}');
  assert.deepEqual(s.counts, { statfs: 2, inLine: 1, pooled: 1 });
});

/** A share whose `what` hangs: the get waits for it, the event loop does not. */
async function hungShare(what: 'read' | 'statfs') {
  const s = seam(NFS);
  const store = storeOn(s);
  assert.equal(await store.create('waves/1/log/00000001', Buffer.from('{"a":1}')), true);
  s.hang(what);
  let got: Buffer | undefined | 'pending' = 'pending';
  const reading = store.get('waves/1/log/00000001').then((b) => (got = b));
  // Timers run meanwhile; a read made in line on the main thread would have ended before this one.
  await sleep(5);
  assert.equal(got, 'pending', `the get is held by its ${what}`);
  s.release();
  await reading;
  assert.equal(String(got), '{"a":1}');
  assert.deepEqual(s.counts, { statfs: 1, inLine: 0, pooled: 1 });
}

test('a directory on a share (NFS) whose read hangs: the read waits, the process does not (a timer fires meanwhile), and the key is read once the share answers', () =>
  hungShare('read'));

test('a directory on a share (NFS) whose statfs hangs: the read waits, the process does not (a timer fires meanwhile), and the key is read once the share answers', () =>
  hungShare('statfs'));
