// The run's log in another CI system: the terminal lines, framed in a section per step (one
// open at a time: sections cannot interleave, so steps running beside the open one print into
// it), with failures and warnings as the CI's own annotations where it has them.
import type { RunLogger } from '../runner/logger.ts';
import type { StepRun } from '../runner/result.ts';
import type { CiAdapter, Where } from './adapters.ts';

export class CiLogger implements RunLogger {
  private open: StepRun | undefined;

  constructor(
    private readonly inner: RunLogger,
    private readonly ci: CiAdapter,
    private readonly write: (line: string) => void,
    private readonly now: () => number,
    private readonly where: (run: StepRun) => Where,
  ) {}

  private emit(line: string | undefined): void {
    if (line !== undefined) this.write(`${line}\n`);
  }

  private key(run: StepRun): string {
    return `step_${run.step}_${run.name}`;
  }

  stepStarted(run: StepRun, position: string): void {
    if (!this.open) {
      const start = this.ci.sectionStart(this.key(run), `${position} ${run.name} (${run.uses})`, this.now());
      if (start !== undefined) {
        this.open = run;
        this.emit(start);
      }
    }
    this.inner.stepStarted(run, position);
  }

  stepFinished(run: StepRun, position: string): void {
    if (this.open === run) {
      this.emit(this.ci.sectionEnd(this.key(run), this.now()));
      this.open = undefined;
    }
    this.inner.stepFinished(run, position);
    if (run.outcome === 'failure' && run.error) {
      this.emit(this.ci.issue(run.continuedOnError ? 'warning' : 'error', `${run.name}: ${run.error.message}${run.error.hint ? `\nhint: ${run.error.hint}` : ''}`, this.where(run)));
    }
  }

  info(run: StepRun | undefined, message: string): void {
    this.inner.info(run, message);
  }

  warn(run: StepRun | undefined, message: string): void {
    this.inner.warn(run, message);
    this.emit(this.ci.issue('warning', run ? `${run.name}: ${message}` : message, run ? this.where(run) : undefined));
  }
}
