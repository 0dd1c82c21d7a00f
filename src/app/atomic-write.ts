// A report file written whole or not at all: into a temporary file beside it, then renamed over
// it. A full disk or a killed process leaves the earlier file (or none), never a truncated JSON or
// an empty HTML that a later job would read as the run's result.
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file system calls it makes (tests pass a full disk). */
export interface AtomicFs {
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  rm: typeof fsp.rm;
}

const BATCH = 64 * 1024;

export async function writeAtomic(path: string, content: string | Iterable<string>, fs: AtomicFs = fsp): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temp, 'wx', 0o644);
    try {
      // Sequential writeFile calls on one handle append; small pieces are batched.
      let batch = '';
      for (const piece of typeof content === 'string' ? [content] : content) {
        batch += piece;
        if (batch.length >= BATCH) {
          await handle.writeFile(batch);
          batch = '';
        }
      }
      if (batch !== '') await handle.writeFile(batch);
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
