// Longer than 250 lines: the file's writes, its group commit and its copy in the run store are one ordering; split, it would be read across files.
// The journal file: opened once (a regular file only, never blocking), locked for one run at a
// time, its torn tail cut off before anything is appended, each record written whole and, when it
// must be durable, synced (and with a store, put there) before its promise settles. Writes and
// syncs are shared (group commit): records appended while a sync is in flight are written and
// synced together by the next. A failed write breaks the journal: no call leaves once its record
// could not be kept. The file system is passed in (tests inject a full disk).
import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';
import { EnginectlError, ExitCode, UsageError } from '../errors.ts';
import { decodeJournal, encodeLineBytes, type Framed } from './frame.ts';
import { makeDirectoriesSync } from '../make-directories.ts';
import { acquireLock, type Lock, type LockFs } from './lock.ts';
import { checkSeals, isSealed, JOURNAL_KEY_VARIABLE, sealLine } from './seal.ts';
import type { JournalReplica } from './replica.ts';
import { StoreError } from '../store/store.ts';
import { damagedJournal, notAJournal } from './read.ts';
import type { JournalRecord } from './records.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

export type JournalFs = LockFs &
  Pick<
    typeof nodeFs,
    | 'openSync'
    | 'fstatSync'
    | 'writeSync'
    | 'fdatasync'
    | 'fdatasyncSync'
    | 'ftruncateSync'
    | 'closeSync'
    | 'readFileSync'
    | 'mkdirSync'
  >;

/** A record could not be written: the run stops before its next call (exit 1). */
export class JournalWriteError extends EnginectlError {
  readonly code = 'JOURNAL_WRITE_FAILED';
  readonly exitCode = ExitCode.failed;
}

const { O_RDWR, O_CREAT, O_APPEND, O_NONBLOCK } = nodeFs.constants;

/** The journal's file was deleted while the run wrote it (JournalFile.break). */
const DELETED = Symbol('journal deleted');

/** Queued records up to this many bytes are written with one call. */
const ONE_WRITE = 1 << 20;

function errno(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

export interface OpenedJournal {
  file: JournalFile;
  /** The whole records already in the file (a resume reads them). */
  framed: Framed;
  /** Said once, before the run: a torn tail cut off, a stale lock taken over. */
  warnings: string[];
}

export class JournalFile {
  private broken: JournalWriteError | undefined;

  /** With a key (seal.ts): the seal of the last record, which the next one chains to. */
  private lastSeal = '';

  private constructor(
    readonly path: string,
    private readonly fd: number,
    private readonly lock: Lock,
    private readonly fs: JournalFs,
    private readonly key: string | undefined,
  ) {}

  /** With a run store: where each synced group goes before its durable records settle (replica.ts). */
  private replica: JournalReplica | undefined;
  /** Bytes written to the file and not yet in the store. */
  private unpushed: Buffer[] = [];

  /** Copies every group this journal syncs to the run store, from now on. */
  replicateTo(replica: JournalReplica): void {
    this.replica = replica;
  }

  /** Opens (creating) the journal at `path` for one run, and its directory as a report's is: locked, its torn tail cut off. */
  static open(
    path: string,
    command: string,
    options: {
      mustExist?: boolean;
      fs?: JournalFs | undefined;
      key?: string | undefined;
      truncate?: boolean | undefined;
      /** How the surface names the journal a run wrote, in the hint of one not there or of a full disk (the CLI's flags by default). */
      ways?: WaysOn | undefined;
      /** What the refusal of a record calls the journal: a stored run's `URL run ID`, not its local copy (default: `path`). */
      name?: string | undefined;
      /** What a refusal says was left undone: `nothing was run` (a run's), `nothing was recorded` (a decision's). */
      undone?: string | undefined;
    } = {},
  ): OpenedJournal {
    const fs = options.fs ?? nodeFs;
    const refuse = (
      why: string,
      hint = 'choose a regular file in a directory this process can write; nothing was run',
    ) => new UsageError('BAD_JOURNAL', `journal ${path}: ${why}`, { hint });
    if (!options.mustExist) {
      try {
        makeDirectoriesSync(dirname(path), fs);
      } catch (error) {
        throw refuse(`cannot create its directory ${dirname(path)} (${errno(error)})`);
      }
    }
    const { lock, warning } = acquireLock(path, command, fs);
    let fd: number | undefined;
    try {
      // O_NONBLOCK: opening a FIFO never waits for a peer (and SIGTERM is handled meanwhile).
      fd = fs.openSync(path, O_RDWR | (options.mustExist ? 0 : O_CREAT) | O_APPEND | O_NONBLOCK, 0o600);
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw refuse('not a regular file (a FIFO, a device or a directory)');
      // The store's copy is the run's truth: the local file it is written into starts empty.
      if (options.truncate) fs.ftruncateSync(fd, 0);
      const text = fs.readFileSync(fd, 'utf8');
      const framed = decodeJournal(text);
      const warnings = warning ? [warning] : [];
      const named = options.name ?? path;
      if (framed.foreign) throw notAJournal(named, '; nothing was run and the file is left as it was', options.ways);
      if (framed.damaged !== undefined) throw damagedJournal(named, framed.damaged, options.ways);
      if (framed.torn !== undefined) {
        fs.ftruncateSync(fd, framed.wholeBytes);
        warnings.push(
          `journal ${path}:${framed.torn}: the last record was torn (the run that wrote it was killed, or its disk filled, mid-write); it was cut off`,
        );
      }
      // Sealed records are checked before anything is read from them; a sealed journal is appended to only with its key.
      const lastSeal = options.key ? checkSeals(text, named, options.key, framed.wholeBytes, options.ways) : '';
      if (!options.key && isSealed(text)) {
        throw new UsageError(
          'BAD_JOURNAL',
          `${options.name ?? `journal ${path}`}: it is sealed with a key (${JOURNAL_KEY_VARIABLE}), which is not set`,
          { hint: `set ${JOURNAL_KEY_VARIABLE} to the key that sealed it; ${options.undone ?? 'nothing was run'}` },
        );
      }
      const file = new JournalFile(path, fd, lock, fs, options.key);
      file.lastSeal = lastSeal;
      file.ways = options.ways ?? CLI_WAYS;
      // A file system that counts no links (some FUSE mounts say 0) is never taken for one that lost the file.
      file.countsLinks = stat.nlink > 0;
      return { file, framed, warnings };
    } catch (error) {
      if (fd !== undefined) fs.closeSync(fd);
      lock.release();
      if (error instanceof EnginectlError) throw error;
      if (options.mustExist && errno(error) === 'ENOENT')
        throw refuse('no such file', `give ${(options.ways ?? CLI_WAYS).journalWritten}; nothing was run`);
      throw refuse(`cannot open it (${errno(error)})`);
    }
  }

  /** Why the journal can no longer be written, once a write failed. */
  get failure(): JournalWriteError | undefined {
    return this.broken;
  }

  /** Durable records written or queued, waiting for the next sync; whether one is in flight. */
  private waiting: { resolve: () => void; reject: (error: JournalWriteError) => void }[] = [];
  private syncing = false;
  /** Records appended and not yet written (they are written together, in order). */
  private queued: Buffer[] = [];
  private scheduled = false;

  /**
   * Appends one record whole, at once (records keep their order); a `durable` one settles once a
   * sync that started after it was written has completed. Throws (or rejects) once broken.
   */
  append(record: JournalRecord, durable = false): Promise<void> {
    if (this.broken) throw this.broken;
    const line = encodeLineBytes(record);
    if (this.key) {
      const sealed = sealLine(line, this.key, this.lastSeal);
      this.lastSeal = sealed.mac;
      this.queued.push(...sealed.pieces);
    } else this.queued.push(...line);
    const settled = durable
      ? new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }))
      : Promise.resolve();
    // Group commit: the records of this turn of the event loop are written together (a
    // microtask, before any I/O of the run) and synced together; while a sync is in flight, the
    // records appended meanwhile wait for its end and are written and synced as the next group.
    if (!this.scheduled && !this.syncing) {
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.commit();
      });
    }
    return settled;
  }

  /** Writes the queued records whole, in order (every write's byte count checked); breaks the journal on failure. */
  private writeQueued(): void {
    if (this.queued.length === 0 || this.broken) return;
    const queued = this.queued;
    this.queued = [];
    // Small records in one write; a large one (an update report) as it is, not copied into a batch.
    const size = queued.reduce((sum, b) => sum + b.length, 0);
    const pieces = size <= ONE_WRITE ? [Buffer.concat(queued, size)] : queued;
    try {
      for (const bytes of pieces) {
        for (let written = 0; written < bytes.length;) {
          const n = this.fs.writeSync(this.fd, bytes, written, bytes.length - written);
          if (n <= 0) throw new Error('no byte was written');
          written += n;
        }
        if (this.replica) this.unpushed.push(bytes);
      }
    } catch (error) {
      const broken = this.break(error);
      for (const w of this.waiting.splice(0)) w.reject(broken);
    }
  }

  /** Writes the queued records and syncs them when one must be durable: unless a sync is in flight (its end does it). */
  private commit(): void {
    if (this.syncing) return;
    this.writeQueued();
    if (this.broken || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.syncing = true;
    this.fs.fdatasync(this.fd, (synced) => {
      // A journal no path names any more (deleted under the run) keeps nothing a resume or verify could read.
      const error = synced ?? (!this.replica && this.deleted() ? DELETED : null);
      const settle = (failure: unknown) => {
        this.syncing = false;
        if (failure || this.broken) {
          const broken = this.broken ?? this.break(failure);
          for (const w of [...batch, ...this.waiting.splice(0)]) w.reject(broken);
          return;
        }
        for (const w of batch) w.resolve();
        this.commit();
      };
      if (error || this.broken || !this.replica) return settle(error);
      // Durable means in the store too: the group goes up before its records settle.
      this.pushUnpushed().then(() => settle(undefined), settle);
    });
  }

  private pushUnpushed(): Promise<void> {
    if (!this.replica || this.unpushed.length === 0) return Promise.resolve();
    const bytes = Buffer.concat(this.unpushed.splice(0));
    return this.replica.push(bytes);
  }

  private break(error: unknown): JournalWriteError {
    if (error === DELETED) {
      this.broken ??= new JournalWriteError(
        `journal ${this.path} was deleted while the run wrote it; the run stopped before its next call`,
        {
          hint: 'its records went with it: check on the server what the run did (its report says which calls were answered) before running the pipeline again, with a journal nothing removes',
        },
      );
      return this.broken;
    }
    if (error instanceof StoreError) {
      this.broken ??= new JournalWriteError(
        `journal ${this.path}: a record could not be put in the run store: ${error.message}; the run stopped before its next call`,
        { hint: error.hint, cause: error },
      );
      return this.broken;
    }
    this.broken ??= new JournalWriteError(
      `journal ${this.path}: a record could not be written (${errno(error)}); the run stopped before its next call`,
      {
        // An empty journal has nothing to resume from (resume refuses it) and no write was sent without its record.
        hint: this.empty()
          ? `${this.ways.freeSpace}, then run the pipeline again: the journal holds no record, so no write was sent`
          : `${this.ways.freeSpace}, then resume from this journal: its last record is cut off if torn, and a call it cannot prove answered is in doubt`,
        cause: error,
      },
    );
    return this.broken;
  }

  private countsLinks = false;
  /** How the surface names what to do once the disk is full (the CLI's flags by default). */
  private ways: WaysOn = CLI_WAYS;

  /** Whether no path names the file any more (its last link removed). */
  private deleted(): boolean {
    if (!this.countsLinks) return false;
    try {
      return this.fs.fstatSync(this.fd).nlink === 0;
    } catch {
      return false;
    }
  }

  /** Whether the file holds nothing (a first record that never reached the disk). */
  private empty(): boolean {
    try {
      return this.fs.fstatSync(this.fd).size === 0;
    } catch {
      return false;
    }
  }

  /** Settles once every durable record appended so far is on disk, and every other one written. */
  flushed(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (!this.syncing && this.waiting.length === 0) {
      this.writeQueued();
      return this.broken ? Promise.reject(this.broken) : Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.commit();
    });
  }

  private closed = false;

  /** Writes, syncs and puts in the store what is left (the records after the last durable one); a store that fails is said, not thrown. */
  async settle(): Promise<string | undefined> {
    if (this.broken || this.closed) return undefined;
    try {
      await this.flushed();
      this.writeQueued();
      if (this.replica && this.unpushed.length > 0) {
        this.fs.fdatasyncSync(this.fd);
        await this.pushUnpushed();
      }
      return undefined;
    } catch (error) {
      return `journal ${this.path}: the last records could not be put in the run store (${(error as Error).message}); the local file holds them`;
    }
  }

  /** Syncs, closes and unlocks; a second call does nothing. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.writeQueued();
    try {
      if (!this.broken) this.fs.fdatasyncSync(this.fd);
    } catch {
      // The records that had to be durable were synced as they were written.
    }
    this.fs.closeSync(this.fd);
    this.lock.release();
  }
}
