// The process edge of the CLI: real streams, environment and signals in; exit code out.
import { readTextFile, readTextStream } from '../read-text-file.ts';
import { endBySignalIfHeld, trapSignals } from '../signals.ts';
import { endWhenPoolHeld, storeCallsLeftWaiting } from '../store/store.ts';
import { runCommand } from './run-command.ts';

/**
 * Writes to a stream that its reader may close (`enginectl run … | head`): once it is closed
 * (EPIPE), later writes are dropped. Losing the log's reader never stops or crashes a deployment:
 * the run goes on, its reports are written, and the exit code is the run's. Any other failure (a
 * full disk) is kept in `failed`, for the commands whose stdout is what they make.
 */
function writer(stream: NodeJS.WriteStream): { write: (text: string) => void; failed: () => string | undefined } {
  let closed = false;
  let failed: string | undefined;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code !== 'EPIPE') failed ??= error.code ?? error.message;
  });
  return {
    write: (s) => {
      if (closed || stream.destroyed) return;
      stream.write(s);
    },
    failed: () => failed,
  };
}

/** The commands whose stdout is their product (a schema, a job matrix, an answer, a plan), not a log. */
const PRINTING = new Set(['schema', 'matrix', 'api', 'plan']);

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
  endWhenPoolHeld(signals, (text) => process.stderr.write(text));
  const stdout = writer(process.stdout);
  const code = await runCommand(argv, {
    stdout: stdout.write,
    stderr: writer(process.stderr).write,
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
  endBySignalIfHeld(signals, storeCallsLeftWaiting(), (text) => process.stderr.write(text));
  // What a command prints is what it makes: not written (a full disk), it did not succeed. A
  // write's failure is told on a later tick: one turn of the event loop lets it arrive.
  if (!PRINTING.has(argv[0] ?? '') || process.exitCode !== 0) return;
  await new Promise((resolve) => setImmediate(resolve));
  const failed = stdout.failed();
  if (failed !== undefined) {
    process.stderr.write(`enginectl: cannot write the output to standard output (${failed})\n`);
    process.exitCode = 1;
  }
}
