// A directory store's own directory, asked before its first write: never made by enginectl (a
// runner without the share mounted would keep a store, and a lease, of its own on its own disk),
// so one that is not there, or a file in its place, stops the command, saying which.
import type * as nodeFs from 'node:fs';
import { StoreError } from './store.ts';

export async function checkStoreRoot(fs: typeof nodeFs, url: string, root: string): Promise<void> {
  let stat: nodeFs.Stats;
  try {
    stat = await fs.promises.stat(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      throw new StoreError('STORE_FAILED', `${url}: cannot read the directory (${code ?? (error as Error).message})`, {
        cause: error,
        hint: 'check the directory is mounted and readable by this runner',
      });
    throw new StoreError('STORE_FAILED', `${url}: the store's directory ${root} is not there`, {
      hint: `mount the share that holds it on this runner, or make it once where every runner sees it (mkdir -p ${root}): enginectl never makes a store's own directory`,
    });
  }
  if (!stat.isDirectory())
    throw new StoreError('STORE_FAILED', `${url}: the store's directory ${root} is not a directory`, {
      hint: 'name the directory the runs are kept in (file:///ABSOLUTE/PATH), not a file',
    });
}
