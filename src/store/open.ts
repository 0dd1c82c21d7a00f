// A run store by its URL (--store, ENGINECTL_STORE, the action's store input): s3://BUCKET/PREFIX
// or file:///PATH; anything else is refused (exit 2) before anything is sent, naming the URL
// without any credentials it holds.
import { DirectoryStore } from './directory.ts';
import type { S3StoreOptions } from './s3.ts';
import { parseS3Url } from './s3-url.ts';
import { nameOfStore, StoreError, type RunStore } from './store.ts';

/** The URL as it may be printed: any user or password in it replaced. */
export { nameOfStore };

export function openStore(
  url: string,
  env: Record<string, string | undefined>,
  /** `named`: where the URL was given, as a refusal names it (the CLI's --store by default, an action's input). */
  options: S3StoreOptions & { named?: string | undefined } = {},
): RunStore {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === 's3') return lazyS3(url, env, options);
  if (scheme === 'file') {
    try {
      // file:dir (no //) reads as the path /dir, at the file system's root: never what was meant.
      if (!/^file:\/\//i.test(url)) throw new Error('it has no // after file:');
      return new DirectoryStore(url, undefined, undefined, options.signal);
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(
        'STORE_REFUSED',
        `${nameOfStore(url)} is not a directory's file URL (${(error as Error).message})`,
        {
          cause: error,
          hint: 'write it as file:///ABSOLUTE/PATH, a directory on this machine or a share every runner mounts',
        },
      );
    }
  }
  throw new StoreError(
    'STORE_REFUSED',
    `${nameOfStore(url)} is not a run store: a store is s3://BUCKET/PREFIX or file:///PATH`,
    { hint: `give ${options.named ?? '--store'} (or ENGINECTL_STORE) as s3://BUCKET/PREFIX or file:///PATH` },
  );
}

/**
 * The S3 store, its SDK loaded at first use: a run without --store, and every other command, never
 * loads it (it is most of the CLI's size). A URL it refuses is refused at that first use, the
 * store's probe, before anything is sent.
 */
function lazyS3(url: string, env: Record<string, string | undefined>, options: S3StoreOptions): RunStore {
  parseS3Url(url, env);
  let real: Promise<RunStore> | undefined;
  const store = () => (real ??= import('./s3.ts').then((m) => new m.S3Store(url, env, options)));
  return {
    url: nameOfStore(url),
    get: async (key) => (await store()).get(key),
    create: async (key, body) => (await store()).create(key, body),
    prepare: async (key, body) => (await store()).prepare(key, body),
    list: async (prefix) => (await store()).list(prefix),
  };
}
