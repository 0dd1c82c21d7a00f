// SIGINT, SIGTERM and SIGHUP at a process edge: they abort a signal (the runner aborts the call in
// flight and cancels the rest, and every report is still written) and decide the exit code, 130,
// 143 or 129. A second signal is the operator insisting: the process exits at once. SIGHUP (the
// terminal closed: an SSH session dropped) would otherwise end the process at once, mid-call, no
// report written; Node resets it to its default at start-up even under nohup, so trapping it
// takes nothing from nohup that Node had left.
import { ExitCode } from './errors.ts';

export interface TrappedSignals {
  signal: AbortSignal;
  /** The process exit code for a command's result: a result cut short by a signal exits 130/143/129. */
  exitCode(code: number): number;
  /** The signal that stopped the command, if one did. */
  received(): NodeJS.Signals | undefined;
  release(): void;
}

/**
 * Ends the process by the signal that stopped it, its handler released (the default action: a
 * shell reads 128 + its number, the exit code the command would have had), when `held` calls are
 * still held by a file system (a directory store on a share that hangs, its calls cut after their
 * grace): Node cannot cancel a call in its thread pool, nor exit while one waits (its exit joins
 * the pool's threads). Called once the command's reports are written; otherwise does nothing.
 */
export function endBySignalIfHeld(
  signals: TrappedSignals,
  held: number,
  say: (text: string) => void,
  /** Why it ends now, before the command ended (the pool held whole: its reports cannot be written). */
  now?: string,
): void {
  const signal = signals.received();
  if (signal === undefined || held === 0) return;
  signals.release();
  say(
    `enginectl: ${held === 1 ? 'a call' : `${held} calls`} of the run store still held by its file system, which cannot be cancelled${now ? `, ${now}` : ''}: ending by ${signal}\n`,
  );
  process.kill(process.pid, signal);
}

export function trapSignals(
  exit: (code: number, signal: NodeJS.Signals) => void = (code, signal) => {
    process.stderr.write(`enginectl: a second ${signal}: exiting now, without waiting for the reports\n`);
    process.exit(code);
  },
): TrappedSignals {
  const stop = new AbortController();
  let signalExit: number | undefined;
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const code =
      signal === 'SIGINT' ? ExitCode.interrupted : signal === 'SIGHUP' ? ExitCode.hangup : ExitCode.terminated;
    if (signalExit !== undefined) return exit(code, signal);
    signalExit = code;
    received = signal;
    stop.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  return {
    signal: stop.signal,
    exitCode: (code) => (code === ExitCode.ok || signalExit === undefined ? code : signalExit),
    received: () => received,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
    },
  };
}
