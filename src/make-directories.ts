// A directory and its missing parents, made one at a time from the nearest that exists: Node's own
// recursive mkdir spins forever, at full CPU and deaf to signals, where a parent cannot be made
// (/proc/nope on Linux) instead of failing with the parent's error.
import * as nodeFs from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** The directories to make for `dir`, the nearest existing one's child first. */
function missing(dir: string): string[] {
  const out: string[] = [];
  for (let at = dir; !nodeFs.existsSync(at); at = dirname(at)) {
    out.push(at);
    if (dirname(at) === at) break;
  }
  return out.reverse();
}

const made = (error: unknown) => {
  if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
};

export function makeDirectoriesSync(dir: string, fs: Pick<typeof nodeFs, 'mkdirSync'> = nodeFs): void {
  for (const d of missing(dir))
    try {
      fs.mkdirSync(d);
    } catch (error) {
      made(error);
    }
}

export async function makeDirectories(
  dir: string,
  fs: Pick<typeof nodeFs.promises, 'mkdir'> = nodeFs.promises,
): Promise<void> {
  for (const d of missing(dir)) await fs.mkdir(d).catch(made);
}

/**
 * The directories below `root` down to `dir`, each made when missing; `root` itself never (gone,
 * the first fails ENOENT). With `mode`, each one made is given it: mkdir's own mode is narrowed by
 * the umask (022 makes a directory its maker's alone to write), so it is set after.
 */
export async function makeDirectoriesUnder(
  root: string,
  dir: string,
  fs: Pick<typeof nodeFs.promises, 'mkdir' | 'chmod'> = nodeFs.promises,
  mode?: number,
): Promise<void> {
  let at = root;
  for (const name of relative(root, dir).split(sep).filter(Boolean)) {
    at = join(at, name);
    const here = await fs.mkdir(at, mode).then(
      () => true,
      (error: unknown) => (made(error), false),
    );
    if (here && mode !== undefined) await fs.chmod(at, mode);
  }
}
