// What the runner tells the person watching, already masked. The CLI prints it to a terminal;
// the GitHub Action turns it into log groups and annotations.
import type { StepRun } from './result.ts';

export interface RunLogger {
  stepStarted(run: StepRun, position: string): void;
  stepFinished(run: StepRun, position: string): void;
  /** A line about a running step (waits, retries, heartbeats). */
  info(run: StepRun | undefined, message: string): void;
  warn(run: StepRun | undefined, message: string): void;
}

/** A logger that records every line, for tests and for callers that print later. */
export class RecordingLogger implements RunLogger {
  readonly lines: string[] = [];
  stepStarted(run: StepRun, position: string) {
    this.lines.push(`start ${position} ${run.name}`);
  }
  stepFinished(run: StepRun, position: string) {
    this.lines.push(`end ${position} ${run.name} ${run.outcome}${run.error ? `: ${run.error.message}` : ''}`);
  }
  info(run: StepRun | undefined, message: string) {
    this.lines.push(`info ${run?.name ?? ''} ${message}`);
  }
  warn(run: StepRun | undefined, message: string) {
    this.lines.push(`warn ${run?.name ?? ''} ${message}`);
  }
}
