// Longer than 250 lines: taking a lock, taking a stale one over and refusing a live one are one protocol over the same files; split, its races would be read across files.
// One run at a time per journal: `JOURNAL.lock`, created exclusively (O_EXCL) and holding the pid,
// host and start of the run that holds it. The lock is the file's, not its spelling's: it lies
// beside the journal's real path (links resolved), so a resume through a symbolic link or another
// spelling of the directory takes the same lock. A second run is refused (exit 2) saying who holds
// it; a lock left by a process of this host that no longer exists (a killed run) is stale: it is
// taken over, and said, under a takeover lock of its own (`JOURNAL.lock.takeover`, O_EXCL), so two
// runs that both find it stale never both take it. A lock of another host cannot be checked from
// here: the operator removes it, and so is one naming this process's own pid that it does not hold
// (another container's pid 1 on a shared host name, or a run killed before its container restarted:
// the file cannot tell which). verify, which reads a journal and writes nothing, takes no lock:
// it is refused while a run holds it, and reads past a stale one.
import * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.ts';

export type LockFs = Pick<
  typeof nodeFs,
  'openSync' | 'writeSync' | 'closeSync' | 'readFileSync' | 'unlinkSync' | 'realpathSync'
>;

export interface Lock {
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
  at: string;
  command: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(text: string): Holder | undefined {
  try {
    const h = JSON.parse(text) as Partial<Holder>;
    return typeof h.pid === 'number' && typeof h.host === 'string'
      ? { pid: h.pid, host: h.host, at: String(h.at ?? '?'), command: String(h.command ?? '?') }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The lock's path: beside the journal's real path (its directory's, while the journal does not exist yet). */
export function lockPathOf(journal: string, fs: Pick<LockFs, 'realpathSync'> = nodeFs): string {
  try {
    return `${fs.realpathSync(journal)}.lock`;
  } catch {
    try {
      return join(fs.realpathSync(dirname(journal)), `${basename(journal)}.lock`);
    } catch {
      return `${journal}.lock`;
    }
  }
}

/** Creates `path` exclusively holding `text`; false when it exists. */
function create(fs: LockFs, path: string, text: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  writeHolder(fs, fd, path, text);
  return true;
}

/** Writes the holder into the lock just created at `path`; a write that fails (a full disk) leaves no empty lock behind. */
function writeHolder(fs: LockFs, fd: number, path: string, text: string): void {
  try {
    fs.writeSync(fd, text);
  } catch (error) {
    fs.closeSync(fd);
    try {
      fs.unlinkSync(path);
    } catch {
      // Gone already: nothing is left.
    }
    throw error;
  }
  fs.closeSync(fd);
}

/**
 * Takes over the stale lock at `path` whose text was `seen`: under the takeover lock, only when
 * the lock still holds that text (no other run took it meanwhile). False when another run is
 * taking it over or took it.
 */
function takeOver(fs: LockFs, path: string, seen: string, me: string): boolean {
  const guard = `${path}.takeover`;
  if (!create(fs, guard, me)) return false;
  try {
    let now: string;
    try {
      now = fs.readFileSync(path, 'utf8');
    } catch {
      now = '';
    }
    if (now !== seen) return false;
    fs.unlinkSync(path);
    return create(fs, path, me);
  } finally {
    fs.unlinkSync(guard);
  }
}

/** The locks this process holds: one naming this process's pid and not among them is another process's. */
const heldHere = new Set<string>();

/**
 * Whether the holder of a lock of this host is gone: its process no longer runs. One naming this
 * very process's pid is never gone: this process holds it, or another with the same pid in its
 * own pid namespace does (two containers of one pod share its host name, and each is pid 1), or a
 * run killed before this container restarted in place left it. The file cannot tell these apart,
 * and taking a live run's lock is two runs appending one journal, sending its writes twice.
 */
function gone(holder: Holder): boolean {
  return holder.pid !== process.pid && !alive(holder.pid);
}

/** The hint's words for a lock naming this process's pid that it does not hold, else ''. */
function ownPid(holder: Holder | undefined, path: string): string {
  if (holder?.pid !== process.pid || holder.host !== hostname() || heldHere.has(path)) return '';
  return ` It names this process's own pid, which this process does not hold: a run in another container of this host with the same pid (its own pid namespace) holds it, or a run killed before this container restarted left it.`;
}

/**
 * takeOver, its file system's failure (a directory this process cannot write, a read-only mount,
 * another user's lock under a sticky bit) told as the invalid input it is, naming the lock.
 */
function takeOverOrRefuse(fs: LockFs, path: string, seen: string, me: string, journal: string, pid: number): boolean {
  try {
    return takeOver(fs, path, seen, me);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(
      'BAD_JOURNAL',
      `journal ${journal}: its lock was left by process ${pid}, which no longer runs, and cannot be taken over (${code})`,
      {
        hint: `delete ${path} if no run holds it, or choose a journal in a directory this process can write; nothing was run`,
      },
    );
  }
}

function held(fs: LockFs, path: string): Lock {
  let released = false;
  heldHere.add(path);
  return {
    release() {
      if (released) return;
      released = true;
      heldHere.delete(path);
      try {
        fs.unlinkSync(path);
      } catch {
        // Already gone: nothing holds it.
      }
    },
  };
}

export function acquireLock(journal: string, command: string, fs: LockFs = nodeFs): { lock: Lock; warning?: string } {
  const path = lockPathOf(journal, fs);
  const me: Holder = { pid: process.pid, host: hostname(), at: new Date().toISOString(), command };
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(path, 'wx', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST')
        throw new UsageError(
          'BAD_JOURNAL',
          `journal ${journal}: cannot create its lock ${path} (${code ?? (error as Error).message})`,
          { hint: 'choose a journal in a directory this process can write; nothing was run' },
        );
      let text: string;
      try {
        text = fs.readFileSync(path, 'utf8');
      } catch (error) {
        const why = (error as NodeJS.ErrnoException).code;
        // Removed meanwhile: try again.
        if (why === 'ENOENT') continue;
        throw new UsageError(
          'BAD_JOURNAL',
          `journal ${journal}: cannot read its lock ${path} (${why ?? (error as Error).message})`,
          {
            hint:
              why === 'EISDIR'
                ? `remove ${path} (no lock enginectl writes is a directory), then run again; nothing was run`
                : `make ${path} readable, or remove it if no run holds it; nothing was run`,
          },
        );
      }
      const holder = holderOf(text);
      if (holder && holder.host === me.host && gone(holder)) {
        if (!takeOverOrRefuse(fs, path, text, `${JSON.stringify(me)}\n`, journal, holder.pid)) {
          throw new UsageError(
            'JOURNAL_LOCKED',
            `journal ${journal}: its lock was left by process ${holder.pid}, which no longer runs, and another run is taking it over`,
            { hint: 'run one resume at a time; nothing was run' },
          );
        }
        return {
          lock: held(fs, path),
          warning: `journal ${journal}: its lock was left by process ${holder.pid} (${holder.command}, since ${holder.at}), which no longer runs; taken over`,
        };
      }
      const who = holder
        ? `process ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.at})`
        : `an unreadable lock (${path})`;
      throw new UsageError(
        'JOURNAL_LOCKED',
        `journal ${journal} is in use by ${who}; one run at a time may append to a journal`,
        {
          hint: `wait for that run to end.${ownPid(holder, path)} If it is gone (a lost runner on ${holder?.host ?? 'another host'}), delete ${path} and resume; nothing was run`,
        },
      );
    }
    try {
      writeHolder(fs, fd, path, `${JSON.stringify(me)}\n`);
    } catch (error) {
      throw new UsageError(
        'BAD_JOURNAL',
        `journal ${journal}: cannot write its lock ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        { hint: 'free space on that disk, or choose a journal in a directory this process can write; nothing was run' },
      );
    }
    return { lock: held(fs, path) };
  }
  throw new UsageError(
    'JOURNAL_LOCKED',
    `journal ${journal}: its lock ${path} keeps changing; another run is starting`,
    { hint: 'run one resume at a time; nothing was run' },
  );
}

/**
 * For a command that reads a journal and must not while a run writes it (verify: the calls that
 * run has in flight are not in doubt, it waits for their answers): refuses (JOURNAL_LOCKED) while
 * a run holds the lock, as a run is refused, and takes no lock of its own (it writes nothing). A
 * lock left by a process of this host that no longer runs is stale: it does not stop the reading,
 * and is said (the warning); a lock of another host cannot be checked from here.
 */
export function refuseWhileLocked(
  journal: string,
  command: string,
  fs: Pick<LockFs, 'readFileSync' | 'realpathSync'> = nodeFs,
): { warning?: string } {
  const path = lockPathOf(journal, fs);
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code;
    if (why === 'ENOENT') return {};
    throw new UsageError(
      'BAD_JOURNAL',
      `journal ${journal}: cannot read its lock ${path} (${why ?? (error as Error).message})`,
      { hint: `make ${path} readable, or remove it if no run holds it; nothing was read` },
    );
  }
  const holder = holderOf(text);
  if (holder && holder.host === hostname() && gone(holder))
    return {
      warning: `journal ${journal}: its lock was left by process ${holder.pid} (${holder.command}, since ${holder.at}), which no longer runs`,
    };
  const who = holder
    ? `process ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.at})`
    : `an unreadable lock (${path})`;
  throw new UsageError(
    'JOURNAL_LOCKED',
    `journal ${journal} is in use by ${who}: the run that writes it is still running, and a call it has in flight is not in doubt`,
    {
      hint: `${command} once that run has ended.${ownPid(holder, path)} If it is gone (a lost runner on ${holder?.host ?? 'another host'}), delete ${path} and ${command} again; nothing was read or written`,
    },
  );
}
