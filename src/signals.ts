// SIGINT and SIGTERM at a process edge: they abort a signal (the runner aborts the call in
// flight and cancels the rest) and decide the exit code, 130 or 143.
import { ExitCode } from './errors.ts';

export interface TrappedSignals {
  signal: AbortSignal;
  /** The process exit code for a command's result: a result cut short by a signal exits 130/143. */
  exitCode(code: number): number;
  release(): void;
}

export function trapSignals(): TrappedSignals {
  const stop = new AbortController();
  let signalExit: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalExit = signal === 'SIGINT' ? ExitCode.interrupted : ExitCode.terminated;
    stop.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    exitCode: (code) => (code === ExitCode.ok || signalExit === undefined ? code : signalExit),
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
