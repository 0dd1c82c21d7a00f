// What the runner tells the person watching, already masked. One implementation, src/log/run-log.ts,
// prints it for the terminal, every CI system and the GitHub Action (through their sinks).
import type { StepRun } from './result.ts';

export interface RunLogger {
  stepStarted(run: StepRun, position: string): void;
  stepFinished(run: StepRun, position: string): void;
  /** A line about a running step (waits, retries, heartbeats). */
  info(run: StepRun | undefined, message: string): void;
  warn(run: StepRun | undefined, message: string): void;
}
