// One run at a time per journal: `JOURNAL.lock`, created exclusively (O_EXCL) and holding the pid,
// host and start of the run that holds it. A second run is refused (exit 2) saying who holds it;
// a lock left by a process of this host that no longer exists (a killed run) is stale: it is taken
// over, and said. A lock of another host cannot be checked from here: the operator removes it.
import * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { UsageError } from '../errors.ts';

export type LockFs = Pick<typeof nodeFs, 'openSync' | 'writeSync' | 'closeSync' | 'readFileSync' | 'unlinkSync'>;

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
    return typeof h.pid === 'number' && typeof h.host === 'string' ? { pid: h.pid, host: h.host, at: String(h.at ?? '?'), command: String(h.command ?? '?') } : undefined;
  } catch {
    return undefined;
  }
}

export function acquireLock(journal: string, command: string, fs: LockFs = nodeFs): { lock: Lock; warning?: string } {
  const path = `${journal}.lock`;
  const me: Holder = { pid: process.pid, host: hostname(), at: new Date().toISOString(), command };
  let warning: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(path, 'wx', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new UsageError('BAD_JOURNAL', `journal ${journal}: cannot create its lock ${path} (${code ?? (error as Error).message})`, { hint: 'choose a journal in a directory this process can write; nothing was run' });
      let text: string;
      try {
        text = fs.readFileSync(path, 'utf8');
      } catch (error) {
        const why = (error as NodeJS.ErrnoException).code;
        // Removed meanwhile: try again.
        if (why === 'ENOENT') continue;
        throw new UsageError('BAD_JOURNAL', `journal ${journal}: cannot read its lock ${path} (${why ?? (error as Error).message})`, {
          hint: why === 'EISDIR' ? `remove ${path} (no lock enginectl writes is a directory), then run again; nothing was run` : `make ${path} readable, or remove it if no run holds it; nothing was run`,
        });
      }
      const holder = holderOf(text);
      if (holder && holder.host === me.host && !alive(holder.pid)) {
        fs.unlinkSync(path);
        warning = `journal ${journal}: its lock was left by process ${holder.pid} (${holder.command}, since ${holder.at}), which no longer runs; taken over`;
        continue;
      }
      const who = holder ? `process ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.at})` : `an unreadable lock (${path})`;
      throw new UsageError('JOURNAL_LOCKED', `journal ${journal} is in use by ${who}; one run at a time may append to a journal`, {
        hint: `wait for that run to end. If it is gone (a lost runner on ${holder?.host ?? 'another host'}), delete ${path} and resume; nothing was run`,
      });
    }
    fs.writeSync(fd, `${JSON.stringify(me)}\n`);
    fs.closeSync(fd);
    let released = false;
    return {
      lock: {
        release() {
          if (released) return;
          released = true;
          try {
            fs.unlinkSync(path);
          } catch {
            // Already gone: nothing holds it.
          }
        },
      },
      ...(warning ? { warning } : {}),
    };
  }
  throw new UsageError('JOURNAL_LOCKED', `journal ${journal}: its lock ${path} keeps changing; another run is starting`, { hint: 'run one resume at a time; nothing was run' });
}
