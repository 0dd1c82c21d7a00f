// The process edge of the CLI: real streams, environment and signals in; exit code out.
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { trapSignals } from '../signals.ts';
import { runCommand } from './run-command.ts';

export async function runMain(argv: string[]): Promise<void> {
  const signals = trapSignals();
  const code = await runCommand(argv, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stdoutIsTTY: process.stdout.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
    signal: signals.signal,
    readFile: (path) => readFile(path, 'utf8'),
    readStdin: () => text(process.stdin),
  });
  signals.release();
  // A server stopped on request exits 0; a call cut short by a signal exits 130/143.
  process.exitCode = signals.exitCode(code);
}
