// A file a command is named (a pipeline), or standard input (api --data @-), read whole as UTF-8
// text, never past a limit and never deaf to SIGINT or SIGTERM. A device or a stream that never
// ends (/dev/zero) is read up to the limit and refused, not until a string or the memory runs
// out. It is opened without waiting (O_NONBLOCK: a FIFO nobody writes to yet is not waited on),
// and a FIFO, a pipe (/dev/stdin) or a terminal is read as the event loop reads a socket, which
// `signal` stops: a read in the thread pool cannot be stopped, and kept the process alive after
// the first signal.
import { constants, createReadStream, fstat, open, read, close, type Stats } from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { promisify } from 'node:util';

export interface ReadTextOptions {
  /** The most bytes read: a longer file is refused with TooLarge, having been read no further. */
  limit?: number;
  /** Stops the read (its error then is an AbortError; the caller looks at the signal). */
  signal?: AbortSignal | undefined;
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
  const { signal } = options;
  const limit = options.limit ?? Infinity;
  signal?.throwIfAborted();
  const fd = await promisify(open)(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let stat: Stats;
  try {
    stat = await promisify(fstat)(fd);
    signal?.throwIfAborted();
  } catch (error) {
    await promisify(close)(fd);
    throw error;
  }
  const bytes = stat.isFile()
    ? await readRegular(fd, stat.size, limit, signal)
    : await readStream(fd, stat, limit, signal);
  return bytes.toString('utf8');
}

/** A regular file, by its size; read on to its end all the same (a file of /proc says 0 and holds more). */
async function readRegular(fd: number, size: number, limit: number, signal?: AbortSignal): Promise<Buffer> {
  try {
    if (size > limit) throw new TooLarge(limit, size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.max(CHUNK, size - total + 1));
      const { bytesRead } = await promisify(read)(fd, buffer, 0, buffer.length, null);
      signal?.throwIfAborted();
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit) throw new TooLarge(limit, undefined);
    }
  } finally {
    await promisify(close)(fd);
  }
}

/**
 * Anything else, as a stream that owns `fd`: a FIFO, a pipe or a socket polled by the event loop
 * (as process.stdin is), a terminal as one; a device (/dev/zero) through the thread pool, whose
 * reads do not wait. Stopped (and closed) once it is over the limit, or when `signal` aborts.
 */
async function readStream(fd: number, stat: Stats, limit: number, signal?: AbortSignal): Promise<Buffer> {
  let stream: Readable;
  try {
    // Loaded when needed: kept out of the single executable's start-up snapshot.
    const tty = process.getBuiltinModule('node:tty');
    stream = tty.isatty(fd)
      ? new tty.ReadStream(fd)
      : stat.isFIFO() || stat.isSocket()
        ? new (process.getBuiltinModule('node:net').Socket)({ fd, readable: true, writable: false })
        : createReadStream('', { fd, autoClose: true, highWaterMark: CHUNK });
  } catch (error) {
    await promisify(close)(fd);
    throw error;
  }
  return readAll(stream, limit, signal);
}

/**
 * The text of a stream already open (process.stdin), read as a FIFO is above: never past
 * `options.limit`, and stopped by `options.signal` (the stream is destroyed then, its error an
 * AbortError). The stream is destroyed once read.
 */
export async function readTextStream(stream: Readable, options: ReadTextOptions = {}): Promise<string> {
  return (await readAll(stream, options.limit ?? Infinity, options.signal)).toString('utf8');
}

async function readAll(stream: Readable, limit: number, signal?: AbortSignal): Promise<Buffer> {
  if (signal) addAbortSignal(signal, stream);
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
