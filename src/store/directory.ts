// Longer than 250 lines: one backend, its writes, reads, listing and the grace cut of each, over one file system's calls.
// The run store in a directory (file:///PATH, made beforehand: a local disk, or a share every
// runner mounts; directory-root.ts says why enginectl never makes it): a key is a file;
// create-only by writing a temporary file, syncing it, then link(2) to its key, which fails when
// the key exists (atomic on every POSIX file system, NFS included, where O_EXCL on old versions is
// not), and syncing the directory so the key survives a crash. A prepared body (a sequence's next
// entry) is written and synced once and linked at each key tried. Only the link decides whether
// the key existed (the probe, store/probe.ts, checks that it does): a look first would answer the
// probe itself, and measured no faster for a log's races. A key is read in line when the directory
// is on this machine's own disk, through the thread pool on a share (`get`).
import * as nodeFs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDirectoriesUnder } from '../make-directories.ts';
import { checkStoreRoot, directoryGraceMs } from './directory-root.ts';
import { call, directoryFaultHint, kindOf, onThisMachine, readInLine, readInPool } from './read-key.ts';
import {
  checkKey,
  cutAfterGrace,
  keyTooLarge,
  MAX_KEY_BYTES,
  nameOfStore,
  StoreError,
  unlessCut,
  type PreparedBody,
  type RunStore,
} from './store.ts';

/** A call of the file system that failed, and, for a write (`root`: the store's directory), which directory it wrote in: a link's target's, a mkdir's or an open's parent. */
const failed = (store: string, what: string, error: unknown, root?: string) => {
  if (error instanceof StoreError) return error;
  const { code, path, dest } = error as NodeJS.ErrnoException & { dest?: string };
  const at = dest ?? path;
  return new StoreError('STORE_FAILED', `${store}: ${what} (${code ?? (error as Error).message})`, {
    cause: error,
    hint: directoryFaultHint(code, root !== undefined && at !== undefined ? { dir: dirname(at), root } : undefined),
    permission: code === 'EACCES' || code === 'EPERM',
  });
};

const notAFile = (store: string, key: string, kind: string) =>
  new StoreError('STORE_DAMAGED', `${store}: ${key} is not a file (${kind}): it was not written by enginectl`, {
    hint: 'remove it from the store (a key is a regular file, linked to its name by enginectl), then run the command again',
  });

/**
 * How old a temporary file is when no writer can be using it still: a writer holds its own for a
 * write, a sync and its links (seconds); one killed before it removed its file left it for good.
 */
const ABANDONED_MS = 24 * 60 * 60 * 1000;

/**
 * The pauses before a write refused for permissions in a store its group shares is tried again:
 * a directory another account is making is made by its mkdir, then made the group's to write by a
 * chmod, and a write in between is refused (a sharded run's workers begin a wave's log together).
 */
const REFUSED_PAUSES_MS = [10, 40, 160, 640];

export class DirectoryStore implements RunStore {
  private readonly root: string;
  /** Aborted `?grace=` after the run's stop: a call still waiting then fails, though the file system holds it on. */
  private readonly cut: ReturnType<typeof cutAfterGrace>;

  /** The store as it may be printed (store-name.ts): no credentials, no query value unless a safe one, no fragment. */
  readonly url: string;

  constructor(
    url: string,
    private readonly fs: typeof nodeFs = nodeFs,
    private readonly now: () => number = Date.now,
    /** The run's stop (SIGTERM, SIGINT): each call goes on for `?grace=` (5s), then fails (S3Store's `signal`). */
    signal?: AbortSignal,
  ) {
    this.url = nameOfStore(url);
    this.root = fileURLToPath(url);
    this.cut = cutAfterGrace(signal, directoryGraceMs(url, this.url));
  }

  /**
   * `call()`, failed once the grace after the run's stop ran out: Node cannot cancel a file system
   * call (a share that hangs holds it), but the run need not wait for it (store.ts unlessCut).
   */
  private guard<T>(action: string, call: () => Promise<T>): Promise<T> {
    return unlessCut(
      this.cut.signal,
      call,
      () =>
        new StoreError('STORE_FAILED', `${this.url}: ${action}: ${this.cut.said()}, the store not answering`, {
          hint: `what the store did not take is in the run's local journal; check the share that holds ${this.root} answers, then resume from the store`,
        }),
    );
  }

  private path(key: string): string {
    return join(this.root, ...checkKey(key).split('/'));
  }

  /** The store directory's mode when its group may write it (a share runner accounts of one group use: setgid, g+w), asked once. */
  private shared(): Promise<number | undefined> {
    const groups = (s: nodeFs.Stats) => ((s.mode & 0o020) !== 0 ? s.mode : undefined);
    return (this.mode ??= this.fs.promises.stat(this.root).then(groups, () => undefined));
  }
  private mode: Promise<number | undefined> | undefined;

  /** A key's mode: 0660 in a store its group shares, else 0600; never other users' (a key holds masked text, and a masker's gap would be every account's). The umask may narrow it. */
  private async keyMode(): Promise<number> {
    return (await this.shared()) === undefined ? 0o600 : 0o660;
  }

  /**
   * The mode of a directory this store makes: in a store its group shares 0770 and setgid as the
   * store's directory is, whatever the umask (under 022 mkdir alone makes it its maker's, and the
   * next account's first key is refused); else what mkdir and the umask make.
   */
  private async directoryMode(): Promise<number | undefined> {
    const mode = await this.shared();
    return mode === undefined ? undefined : 0o770 | (mode & 0o2000);
  }

  /**
   * Asked once, through the thread pool (a statfs of a share asks its server, and may hang like a
   * read); a directory not there yet is asked again at the next read, and read through the pool meanwhile.
   */
  private onLocalDisk(): Promise<boolean> {
    this.local ??= call<nodeFs.BigIntStatsFs>((done) => this.fs.statfs(this.root, { bigint: true }, done)).then(
      (fs) => onThisMachine(fs.type),
      () => ((this.local = undefined), false),
    );
    return this.local;
  }
  private local: Promise<boolean> | undefined;

  /**
   * On a disk of this machine, a key is read in line: through the thread pool (an open, a stat, a
   * read and a close, each a round trip) a read cost four times the CPU (39 against 9.5 µs a key,
   * measured), and each worker of a sharded run reads every entry of its wave's log. On a share
   * (NFS, SMB, a FUSE mount, anything not known to be local) through the thread pool: a share that
   * hangs holds that read, not the process, so its signals, heartbeats and other calls go on. The
   * type is the root's: a share mounted below the root is read as the root's disk is. A reader
   * never sees half a key: a key appears only as a link to a complete, synced file.
   */
  get(key: string): Promise<Buffer | undefined> {
    return this.guard(`cannot read ${key}`, () => this.read(key));
  }

  private async read(key: string): Promise<Buffer | undefined> {
    try {
      const path = this.path(key);
      // What is not a regular file (a FIFO planted there, whose read would block) is no key enginectl wrote.
      const check = (stat: nodeFs.Stats) => {
        const kind = kindOf(stat);
        if (kind) throw notAFile(this.url, key, kind);
        if (stat.size > MAX_KEY_BYTES) throw keyTooLarge(this.url, key, stat.size);
      };
      return (await this.onLocalDisk()) ? readInLine(this.fs, path, check) : await readInPool(this.fs, path, check);
    } catch (error) {
      if (error instanceof StoreError) throw error;
      // None there, or a file where the key's folder would be (runs/ID.tar.gz/...): no key, as in S3.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw failed(this.url, `cannot read ${key}`, error);
    }
  }

  /**
   * Runs `act`; when a directory it needs is missing (ENOENT), makes `dir` and runs it again (a
   * store's directories are made as keys first need them), never the root: one gone since `there`
   * saw it (a share unmounted mid-run) is not made again on this runner's disk. Refused for
   * permissions in a store its group shares, tried again after each of `REFUSED_PAUSES_MS`.
   */
  private async inDirectory<T>(dir: string, act: () => Promise<T>): Promise<T> {
    let made = false;
    for (let refused = 0; ;) {
      try {
        return await act();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && !made) {
          made = true;
          await ((this.root_ = undefined), this.rootThere());
          await makeDirectoriesUnder(this.root, dir, this.fs.promises, await this.directoryMode());
        } else if (
          (code === 'EACCES' || code === 'EPERM') &&
          refused < REFUSED_PAUSES_MS.length &&
          (await this.shared()) !== undefined
        )
          await pause(REFUSED_PAUSES_MS[refused++]);
        else throw error;
      }
    }
  }

  /** Cut after the stop's grace, whether it was written is unknown: the link may yet be made. */
  create(key: string, body: Buffer): Promise<boolean> {
    return this.guard(`cannot write ${key} (whether it was written is unknown)`, async () => {
      const prepared = await this.write(key, body);
      try {
        return await prepared.create(key);
      } finally {
        await prepared.release();
      }
    });
  }

  async prepare(key: string, body: Buffer): Promise<PreparedBody> {
    const prepared = await this.guard(`cannot write ${key}`, () => this.write(key, body));
    return {
      create: (at) => this.guard(`cannot write ${at} (whether it was written is unknown)`, () => prepared.create(at)),
      release: () => this.guard('cannot remove a temporary file', prepared.release).catch(() => undefined),
    };
  }

  /**
   * The body in a temporary file, synced: each create of it is a link(2) to its key and a sync of
   * the key's directory, so a race lost costs a link, not a file written and synced again.
   */
  private async write(key: string, body: Buffer): Promise<PreparedBody> {
    checkKey(key);
    await this.rootThere();
    await this.sweep();
    const temp = join(this.root, '.tmp', `${randomUUID()}`);
    const fd = await this.inDirectory(dirname(temp), async () => {
      const mode = await this.keyMode();
      return call<number>((done) => this.fs.open(temp, 'wx', mode, done));
    }).catch((error: unknown) => {
      throw failed(this.url, `cannot write ${key}`, error, this.root);
    });
    // From here the temporary file exists: every way out removes it.
    const release = async () => {
      await call((done) => this.fs.unlink(temp, done)).catch(() => undefined);
    };
    try {
      try {
        await call((done) => this.fs.writeFile(fd, body, done));
        await call((done) => this.fs.fsync(fd, done));
      } finally {
        await call((done) => this.fs.close(fd, done));
      }
    } catch (error) {
      await release();
      throw failed(this.url, `cannot write ${key}`, error);
    }
    return { create: (key) => this.link(temp, key), release };
  }

  /** The store's own directory, seen there once (until then each write asks): never made, so a runner without the share mounted fails rather than keep a store, and a lease, of its own. */
  there(): Promise<void> {
    return this.guard('cannot read the directory', () => this.rootThere());
  }
  private rootThere(): Promise<void> {
    return (this.root_ ??= checkStoreRoot(this.fs, this.url, this.root).catch((error: unknown) => {
      this.root_ = undefined;
      throw error;
    }));
  }
  private root_: Promise<void> | undefined;

  /** The sweep of `.tmp/`, once: made by this store's first write. */
  private swept: Promise<void> | undefined;

  /**
   * Removes the temporary files a killed writer left (`ABANDONED_MS` old), at this store's first
   * write: a store only read (a report) removes nothing. A file that was linked to its key is one
   * name of that key's file: removing it leaves the key whole. Best effort: a file that cannot be
   * removed, or a `.tmp/` that cannot be read, is left for the next writer.
   */
  private sweep(): Promise<void> {
    this.swept ??= (async () => {
      const dir = join(this.root, '.tmp');
      const names = await this.fs.promises.readdir(dir).catch(() => [] as string[]);
      const before = this.now() - ABANDONED_MS;
      for (const name of names) {
        const path = join(dir, name);
        const stat = await this.fs.promises.lstat(path).catch(() => undefined);
        if (stat?.isFile() && stat.mtimeMs < before) await this.fs.promises.unlink(path).catch(() => undefined);
      }
    })();
    return this.swept;
  }

  /** Creates `key` as a link to the synced temporary file: only the link decides whether the key existed. */
  private async link(temp: string, key: string): Promise<boolean> {
    const target = this.path(key);
    try {
      try {
        await this.inDirectory(dirname(target), () => call((done) => this.fs.link(temp, target, done)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      }
      await this.syncDirectory(dirname(target));
      return true;
    } catch (error) {
      throw failed(this.url, `cannot write ${key}`, error, this.root);
    }
  }

  private async syncDirectory(dir: string): Promise<void> {
    const fd = await call<number>((done) => this.fs.open(dir, 'r', done));
    try {
      await call((done) => this.fs.fsync(fd, done));
    } finally {
      await call((done) => this.fs.close(fd, done));
    }
  }

  /** Whether the root is a directory: a writer or a reader of one that is not there has a wrong path, or a runner without the share. */
  exists(): Promise<boolean> {
    return this.guard('cannot read the directory', () => this.rootIsDirectory());
  }
  private async rootIsDirectory(): Promise<boolean> {
    try {
      return (await this.fs.promises.stat(this.root)).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw failed(this.url, 'cannot read the directory', error);
    }
  }

  list(prefix: string): Promise<string[]> {
    return this.guard(`cannot list ${prefix}`, () => this.listed(prefix));
  }
  private async listed(prefix: string): Promise<string[]> {
    const base = join(this.root, ...prefix.split('/').filter(Boolean));
    const start = prefix.endsWith('/') || prefix === '' ? base : dirname(base);
    const out: string[] = [];
    // Each directory's key (its path under the root, with /), and each file's its directory's and its name: a name read is one segment.
    const walk = async (dir: string, at: string): Promise<void> => {
      let entries: nodeFs.Dirent[];
      try {
        entries = await this.fs.promises.readdir(dir, { withFileTypes: true });
      } catch (error) {
        // None there, or a file where a key's folder would be (runs/ID.tar.gz/...): no keys, as S3 lists none.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        throw failed(this.url, `cannot list ${prefix}`, error);
      }
      for (const e of entries) {
        if (e.isDirectory()) {
          if (e.name !== '.tmp') await walk(join(dir, e.name), `${at}${e.name}/`);
        } else {
          const key = `${at}${e.name}`;
          if (key.startsWith(prefix)) out.push(key);
        }
      }
    };
    const under = relative(this.root, start).split(sep).join('/');
    await walk(start, under === '' ? '' : `${under}/`);
    return out.sort();
  }
}
