// The process edge of the CLI: real streams, environment and signals in; exit code out.
import { readTextFile, readTextStream } from '../read-text-file.ts';
import { trapSignals } from '../signals.ts';
import { runCommand } from './run-command.ts';

/**
 * Writes to a stream that its reader may close (`enginectl run … | head`): once it is closed
 * (EPIPE), later writes are dropped. Losing the log's reader never stops or crashes a deployment:
 * the run goes on, its reports are written, and the exit code is the run's.
 */
function writer(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', () => {
    closed = true;
  });
  return (s) => {
    if (closed || stream.destroyed) return;
    stream.write(s);
  };
}

export async function runMain(argv: string[]): Promise<void> {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch (error) {
    // Started in a directory removed since (a cleaned workspace, a temporary directory).
    process.stderr.write(
      `enginectl: the current directory no longer exists (${(error as NodeJS.ErrnoException).code ?? 'gone'}): cd into one that does; nothing was run\n`,
    );
    process.exitCode = 2;
    return;
  }
  const signals = trapSignals();
  const code = await runCommand(argv, {
    stdout: writer(process.stdout),
    stderr: writer(process.stderr),
    stdoutIsTTY: process.stdout.isTTY === true,
    env: process.env,
    cwd,
    signal: signals.signal,
    // Every read stops at the first signal (a FIFO, /dev/stdin): nothing is left waiting in the thread pool.
    readFile: (path, options) => readTextFile(path, { ...options, signal: options?.signal ?? signals.signal }),
    // Read as a FIFO is: the first signal stops it (process.stdin is created only then, when read).
    readStdin: (options) => readTextStream(process.stdin, { ...options, signal: options?.signal ?? signals.signal }),
  });
  signals.release();
  // A server stopped on request exits 0; a call cut short by a signal exits 130/143.
  process.exitCode = signals.exitCode(code);
}
