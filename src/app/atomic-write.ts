// A report file written whole or not at all: into a temporary file beside it, then renamed over
// it. A full disk or a killed process leaves the earlier file (or none), never a truncated JSON or
// an empty HTML that a later job would read as the run's result.
//
// A path that names a stream is written as that stream, never replaced: one of this process's
// descriptors (/dev/stdout, /dev/stderr, /dev/fd/N: a pipe into another program, a terminal, the
// file a shell redirected to, where the report lands after the log written so far), a FIFO (its
// reader gets the report; none is an error, not a wait), a terminal or /dev/null. A link is never
// followed: it is replaced like a file, so a link planted at a report's path in a shared directory
// never sends the report, or the bytes of a stream, to the file or device it names.
import { randomBytes } from 'node:crypto';
import { constants, type Stats, write as writeFd } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

/** The file system calls it makes (tests pass a full disk). */
export interface AtomicFs {
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  rm: typeof fsp.rm;
  lstat: typeof fsp.lstat;
}

const BATCH = 64 * 1024;

/** The descriptor a path names when it is one of this process's (/dev/stdout, /dev/fd/3, /proc/self/fd/1). */
export function descriptorOf(path: string): number | undefined {
  const m = /^\/(?:dev\/(stdout|stderr|fd\/(\d+))|proc\/(self|\d+)\/fd\/(\d+))$/.exec(path);
  if (!m) return undefined;
  if (m[1] === 'stdout') return 1;
  if (m[1] === 'stderr') return 2;
  if (m[3] !== undefined && m[3] !== 'self' && Number(m[3]) !== process.pid) return undefined;
  return Number(m[2] ?? m[4]);
}

/** Whether an entry (lstat: a link is itself) is written as it is: anything but a file or a link, which are replaced. */
export function writtenInPlace(info: Stats | undefined): info is Stats {
  return info !== undefined && !info.isFile() && !info.isSymbolicLink();
}

/** What a path that is not a file, a FIFO or a terminal is, for a message. */
export function notWritable(info: Stats): string | undefined {
  if (info.isFile() || info.isFIFO() || info.isCharacterDevice()) return undefined;
  const kind = info.isDirectory()
    ? 'a directory'
    : info.isSocket()
      ? 'a socket'
      : info.isBlockDevice()
        ? 'a block device'
        : 'not a file';
  return `${kind}: not a file, a FIFO or a terminal`;
}

/** The content in pieces of about BATCH characters (sequential writes of one handle append). */
function* batches(content: string | Iterable<string>): Generator<string> {
  let batch = '';
  for (const piece of typeof content === 'string' ? [content] : content) {
    batch += piece;
    if (batch.length >= BATCH) {
      yield batch;
      batch = '';
    }
  }
  if (batch !== '') yield batch;
}

export async function writeAtomic(path: string, content: string | Iterable<string>, fs: AtomicFs = fsp): Promise<void> {
  const fd = descriptorOf(path);
  if (fd !== undefined) return writeDescriptor(fd, content);
  const info = await fs.lstat(path).catch(() => undefined);
  if (writtenInPlace(info)) return writeStream(path, info, content, fs);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temp, 'wx', 0o644);
    try {
      for (const batch of batches(content)) await handle.writeFile(batch);
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

const writeAll = promisify(writeFd);

/** Written to the descriptor itself: its position is the log's, so the report follows what was written to it so far. */
async function writeDescriptor(fd: number, content: string | Iterable<string>): Promise<void> {
  for (const batch of batches(content)) {
    const bytes = Buffer.from(batch);
    for (let at = 0; at < bytes.length;) at += (await writeAll(fd, bytes, at, bytes.length - at)).bytesWritten;
  }
}

/** A FIFO, a terminal or /dev/null (itself, not through a link), opened and written as it is. */
async function writeStream(path: string, info: Stats, content: string | Iterable<string>, fs: AtomicFs): Promise<void> {
  const refused = notWritable(info);
  if (refused) throw new Error(refused);
  // A FIFO is opened without waiting: with no reader that fails (ENXIO) rather than hang the run.
  // That first descriptor stays open until the second (which writes, blocking as a pipe does) is,
  // so the reader never sees its writers all gone in between.
  const probe = info.isFIFO()
    ? await fs
        .open(path, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
        .catch((error: NodeJS.ErrnoException) =>
          Promise.reject(error.code === 'ENXIO' ? new Error('no process reads this FIFO') : error),
        )
    : undefined;
  let handle: fsp.FileHandle;
  try {
    handle = await fs.open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
  } finally {
    await probe?.close();
  }
  try {
    for (const batch of batches(content)) await handle.writeFile(batch);
  } finally {
    await handle.close();
  }
}
