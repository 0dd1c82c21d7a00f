// A directory store's own directory, asked before its first write: never made by enginectl (a
// runner without the share mounted would keep a store, and a lease, of its own on its own disk),
// so one that is not there, or a file in its place, stops the command, saying which.
import type * as nodeFs from 'node:fs';
import { MAX_TIMER_MS, parseDuration, TIMER_LIMIT } from '../duration.ts';
import { DEFAULT_STORE_GRACE_MS } from './s3-url.ts';
import { StoreError } from './store.ts';
import { givenDuration, shownOption } from './store-name.ts';

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
        permission: code === 'EACCES' || code === 'EPERM',
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

/** The options a directory store's URL takes: `?grace=` (as an S3 store's: how long its calls go on after a stop). */
export function directoryGraceMs(url: string, named: string): number {
  const params = new URL(url).searchParams;
  for (const name of params.keys())
    if (name !== 'grace')
      throw new StoreError('STORE_REFUSED', `${named}: unknown option ${shownOption(name)} in the store URL`, {
        hint: "a directory store's one option is grace (?grace=5s); timeout, endpoint, region and path-style are an S3 store's",
      });
  const text = params.get('grace');
  const ms = text === null ? DEFAULT_STORE_GRACE_MS : parseDuration(text);
  if (ms === undefined || ms < 0 || ms > MAX_TIMER_MS)
    throw new StoreError(
      'STORE_REFUSED',
      `${named}: grace is a duration${ms === undefined || ms < 0 ? '' : ` ${TIMER_LIMIT}`}, not ${givenDuration(text, ms)}`,
      {
        hint: "give it as ?grace=5s (how long the store's calls go on once the run was stopped, SIGTERM or SIGINT, before they are cut; 5s by default)",
      },
    );
  return ms;
}
