// A file a command is named (a pipeline), read whole as UTF-8 text, never past a limit: a device
// or a stream that never ends (/dev/zero) is read up to the limit and refused, not until a string
// or the memory runs out. A regular file's size is known before it is read; anything else
// (a FIFO, a pipe, a device) says how long it is only by being read.
import { createReadStream, fstat, open, read, close, type Stats } from 'node:fs';
import { promisify } from 'node:util';

export interface ReadTextOptions {
  /** The most bytes read: a longer file is refused with TooLarge, having been read no further. */
  limit?: number;
}

/** A file over the limit: its size when it is known (a regular file's), else that it is over. */
export class TooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly size: number | undefined,
  ) {
    super(size === undefined ? `over ${limit} bytes` : `${size} bytes, over ${limit}`);
  }
}

const CHUNK = 64 * 1024;

/** The text of the file at `path` (as readFile(path, 'utf8') reads it), refused past `limit` bytes. */
export async function readTextFile(path: string, options: ReadTextOptions = {}): Promise<string> {
  const limit = options.limit ?? Infinity;
  const fd = await promisify(open)(path, 'r');
  let stat: Stats;
  try {
    stat = await promisify(fstat)(fd);
  } catch (error) {
    await promisify(close)(fd);
    throw error;
  }
  const bytes = stat.isFile() ? await readRegular(fd, stat.size, limit) : await readStream(fd, limit);
  return bytes.toString('utf8');
}

/** A regular file, by its size; read on to its end all the same (a file of /proc says 0 and holds more). */
async function readRegular(fd: number, size: number, limit: number): Promise<Buffer> {
  try {
    if (size > limit) throw new TooLarge(limit, size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.max(CHUNK, size - total + 1));
      const { bytesRead } = await promisify(read)(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit) throw new TooLarge(limit, undefined);
    }
  } finally {
    await promisify(close)(fd);
  }
}

/** Anything else, as a stream: stopped (and closed) once it is over the limit. */
async function readStream(fd: number, limit: number): Promise<Buffer> {
  const stream = createReadStream('', { fd, autoClose: true, highWaterMark: CHUNK });
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      total += chunk.length;
      if (total > limit) throw new TooLarge(limit, undefined);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total);
}
