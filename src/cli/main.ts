// The process edge of the CLI: real streams, environment and signals in; exit code out.
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { ExitCode } from '../errors.ts';
import { runCommand } from './run-command.ts';

export async function runMain(argv: string[]): Promise<void> {
  const stop = new AbortController();
  let signalExit: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalExit = signal === 'SIGINT' ? ExitCode.interrupted : ExitCode.terminated;
    stop.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await runCommand(argv, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stdoutIsTTY: process.stdout.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
    signal: stop.signal,
    readFile: (path) => readFile(path, 'utf8'),
    readStdin: () => text(process.stdin),
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  // A server stopped on request exits 0; a call cut short by a signal exits 130/143.
  process.exitCode = code === ExitCode.ok || signalExit === undefined ? code : signalExit;
}
