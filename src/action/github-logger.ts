// The run's log in an Actions job: a collapsible group per step (groups cannot nest, so while
// one step's group is open, lines of steps running beside it are labelled with their name),
// the outcome line outside the group, update warnings as warning annotations. Every text may hold
// the server's words, so each is neutralised: no workflow command, escape sequence or line start
// of the server's reaches the runner.
import { formatDuration } from '../duration.ts';
import type { RunLogger } from '../runner/logger.ts';
import type { StepRun } from '../runner/result.ts';
import { neutralise } from '../ci/neutralise.ts';
import type { Toolkit } from './toolkit.ts';

const ICON: Record<StepRun['outcome'], string> = { success: '✔', failure: '✖', skipped: '-', cancelled: '■' };

export class GitHubLogger implements RunLogger {
  private open: StepRun | undefined;

  constructor(
    private readonly kit: Toolkit,
    private readonly annotate: (run: StepRun) => { file?: string; startLine?: number },
  ) {}

  private line(run: StepRun | undefined, text: string): void {
    this.kit.info(neutralise(run && this.open && run !== this.open ? `[${run.name}] ${text}` : text).replace(/\n/g, '\n  '));
  }

  stepStarted(run: StepRun, position: string): void {
    if (this.open) {
      this.line(run, `▶ ${position} ${run.name} (${run.uses})`);
      return;
    }
    this.open = run;
    this.kit.startGroup(neutralise(`${position} ${run.name} (${run.uses})`).replace(/\n/g, ' '));
  }

  stepFinished(run: StepRun, position: string): void {
    if (this.open === run) {
      this.kit.endGroup();
      this.open = undefined;
    }
    const took = run.startedAt === undefined ? '' : `  ${formatDuration(run.durationMs)}`;
    const detail = run.error ? `: ${run.error.message}` : run.figures ? `  ${run.figures}` : run.outcome === 'skipped' ? '  skipped' : '';
    this.line(undefined, `${ICON[run.outcome]} ${position} ${run.name}${took}${detail}`);
    if (run.error && run.outcome === 'failure') {
      const hint = run.error.hint ? `\nwhat to do: ${run.error.hint}` : '';
      const note = run.continuedOnError ? ' (continue-on-error: the pipeline went on)' : '';
      const message = neutralise(`${run.error.message}${hint}`);
      if (run.continuedOnError) this.kit.warning(message, { title: `${run.name} failed${note}`, ...this.annotate(run) });
      else this.kit.error(message, { title: `${run.name} failed`, ...this.annotate(run) });
    }
  }

  info(run: StepRun | undefined, message: string): void {
    this.line(run, message);
  }

  warn(run: StepRun | undefined, message: string): void {
    this.kit.warning(neutralise(message), { title: run ? run.name : 'enginectl', ...(run ? this.annotate(run) : {}) });
  }
}
