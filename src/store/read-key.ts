// A key of a directory store read from its file: opened, looked at (fstat: `check` refuses what no
// key of enginectl is, before a byte is read), then read whole. In line (a disk of this machine)
// or through the thread pool (a share that may hang: directory.ts says why). And what to check when
// the file system fails a call.
import { constants } from 'node:fs';
import type * as nodeFs from 'node:fs';

/**
 * Linux's statfs(2) magic numbers of file systems on this machine's own disks or memory: ext2-4,
 * XFS, Btrfs, tmpfs, overlayfs (a container's), ZFS, F2FS. A key on one of them is read in line.
 * Other systems' types (macOS's and the BSDs' small indices, Windows' 0) are none of these.
 */
const LOCAL_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010]);

/** A statfs type as Linux's unsigned 32 bits: a 32-bit system's signed f_type comes widened (Btrfs's as 0xFFFFFFFF9123683E). */
const magic = (type: bigint) => Number(BigInt.asUintN(32, type));

/** Whether a statfs type is a file system of this machine's own disks or memory: a key there is read in line. */
export const onThisMachine = (type: bigint): boolean => LOCAL_FILE_SYSTEMS.has(magic(type));

/** How a key is opened: without waiting (a FIFO planted as a key opens, and is then refused by `check`). */
const READ = constants.O_RDONLY | constants.O_NONBLOCK;

/** What a file that is not a regular one is, for a message. */
export function kindOf(stat: nodeFs.Stats): string | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  return stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'not a regular file';
}

/** A callback of node:fs as a promise (its file descriptors plain numbers: a FileHandle per write cost more than the write). */
export const call = <T>(start: (done: (error: NodeJS.ErrnoException | null, value?: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value as T))));

export function readInLine(fs: typeof nodeFs, path: string, check: (stat: nodeFs.Stats) => void): Buffer {
  const fd = fs.openSync(path, READ);
  try {
    const stat = fs.fstatSync(fd);
    check(stat);
    const body = Buffer.allocUnsafe(stat.size);
    let got = 0;
    for (let n = -1; got < stat.size && n !== 0; got += n) n = fs.readSync(fd, body, got, stat.size - got, null);
    return body.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

export async function readInPool(
  fs: typeof nodeFs,
  path: string,
  check: (stat: nodeFs.Stats) => void,
): Promise<Buffer> {
  const fd = await call<number>((done) => fs.open(path, READ, done));
  try {
    const stat = await call<nodeFs.Stats>((done) => fs.fstat(fd, done));
    check(stat);
    const body = Buffer.allocUnsafe(stat.size);
    let got = 0;
    for (let n = -1; got < stat.size && n !== 0; got += n)
      n = await call<number>((done) => fs.read(fd, body, got, stat.size - got, null, done));
    return body.subarray(0, got);
  } finally {
    await call((done) => fs.close(fd, done));
  }
}

/** What to check when the file system of a directory store fails a call, by its error's code (and, for a write, the directory written in and the store's). */
export function directoryFaultHint(code: string | undefined, wrote?: { dir: string; root: string }): string {
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return "the store's file system is full (or this runner's quota there is spent): free space on it, then resume from the store";
  if (code === 'EROFS')
    return "the store's file system is mounted read-only: mount it read-write, then resume from the store";
  if (code === 'EIO')
    return "the store's file system failed the call (EIO: a failing disk, a share whose server dropped): check it, then resume from the store";
  if ((code === 'EACCES' || code === 'EPERM') && wrote)
    return `this runner may not write in ${wrote.dir}: check its owner and mode (in a store runners of one group share, every directory is the group's to write, setgid: one another account made without that needs chmod g+w by it or root; find ${wrote.root} -type d ! -perm -g=w lists them)`;
  if (code === 'EACCES' || code === 'EPERM')
    return "this runner may not write there: check the directory's owner and mode (a share runners of one group use: setgid, group-writable)";
  return 'check the directory is mounted and writable by this runner';
}
