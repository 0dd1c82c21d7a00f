// An inventory a pipeline includes, read only from inside the pipeline's repository: the git work
// tree holding the pipeline (or, outside one, the pipeline's own directory), after following
// links; a regular file (a FIFO, a device or /proc would hang or leak), at most 1 MiB of UTF-8, as
// pipelines are. A refusal says why and never shows what the file holds: `validate` runs on
// untrusted pull requests.
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MAX_FILE_BYTES } from '../pipeline/load.ts';

/** An include that is refused: the message says why, the hint what to do. */
export class IncludeRefused extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** The real path of the git work tree holding `dir`, or of `dir` itself when it is in none. */
export function includeRoot(dir: string): string {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return realpathSync(at);
    if (dirname(at) === at) return realpathSync(dir);
  }
}

const inside = (root: string, path: string) =>
  path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);

/**
 * Reads `path` (relative to `dir`) as an include may be read, or throws IncludeRefused / the
 * system's error. `root` is the real path of the pipeline's repository (includeRoot).
 */
export function readIncludeFile(root: string, dir: string, path: string): string {
  if (isAbsolute(path))
    throw new IncludeRefused(
      'an absolute path',
      'name the inventory relative to the pipeline file, inside its repository',
    );
  const real = realpathSync(resolve(dir, path));
  if (!inside(root, real)) {
    throw new IncludeRefused(
      `it is outside the pipeline's repository (${root})`,
      'keep inventories in the repository that holds the pipeline; a link out of it is not followed either',
    );
  }
  // O_NONBLOCK: opening a FIFO never waits for a writer.
  const fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new IncludeRefused(
        `${relative(root, real) || real} is not a regular file (a FIFO, a device or a directory)`,
        'include a YAML file',
      );
    if (stat.size > MAX_FILE_BYTES)
      throw new IncludeRefused(
        `the file is ${stat.size} bytes; inventories are limited to ${MAX_FILE_BYTES} bytes (1 MiB), as pipelines are`,
        'split it into several inventories',
      );
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, read));
    } catch {
      throw new IncludeRefused('the file is not valid UTF-8', 'save it as UTF-8');
    }
  } finally {
    closeSync(fd);
  }
}
