// A run store by its URL (--store, ENGINECTL_STORE, the action's store input): s3://BUCKET/PREFIX
// or file:///PATH; anything else is refused (exit 2) before anything is sent, naming the URL
// without any credentials it holds.
import { DirectoryStore } from './directory.ts';
import { S3Store, type S3StoreOptions } from './s3.ts';
import { StoreError, type RunStore } from './store.ts';

/** The URL as it may be printed: any user or password in it replaced. */
export const nameOfStore = (url: string): string => url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, '$1***@');

export function openStore(url: string, env: Record<string, string | undefined>, options: S3StoreOptions = {}): RunStore {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === 's3') return new S3Store(url, env, options);
  if (scheme === 'file') {
    try {
      return new DirectoryStore(url);
    } catch (error) {
      throw new StoreError('STORE_REFUSED', `${nameOfStore(url)} is not a directory's file URL (${(error as Error).message})`, { cause: error, hint: 'write it as file:///ABSOLUTE/PATH, a directory on this machine or a share every runner mounts' });
    }
  }
  throw new StoreError('STORE_REFUSED', `${nameOfStore(url)} is not a run store: a store is s3://BUCKET/PREFIX or file:///PATH`, { hint: 'give --store (or ENGINECTL_STORE) as s3://BUCKET/PREFIX or file:///PATH' });
}
