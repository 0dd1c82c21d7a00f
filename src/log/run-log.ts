// The run's log, for every place it is shown: a line per step start and end with its duration and
// key figures, waits and warnings; one collapsible section per step where the sink has them (one
// open at a time: sections cannot nest, so lines of steps running beside the open one go into it,
// each naming its step); failures and warnings as annotations (a continue-on-error failure is a
// warning). Every text may hold the server's words, so each is neutralised: no CI command, escape
// sequence or line start of the server's reaches the log. Colour only when asked (a TTY).
import { appliedAnswer } from '../api/fate.ts';
import { formatDuration } from '../duration.ts';
import type { StepRun } from '../runner/result.ts';
import type { RunLogger } from '../runner/run-logger.ts';
import { decisionPhrase } from '../runner/result.ts';
import { neutralise, neutraliseLines as n } from '../text/neutralise.ts';
import { noMentions } from '../text/escape.ts';
import type { LogSink, Where } from './sink.ts';

const ICON: Record<StepRun['outcome'], string> = { success: '✔', failure: '✖', skipped: '-', cancelled: '■' };
const COLOUR: Record<StepRun['outcome'], number> = { success: 32, failure: 31, skipped: 90, cancelled: 33 };

export function useColour(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

export interface RunLogOptions {
  colour?: boolean;
  /** Where a step is in the pipeline file, for its annotations. */
  where?: (run: StepRun) => Where | undefined;
}

export class RunLog implements RunLogger {
  private open: StepRun | undefined;

  constructor(
    private readonly sink: LogSink,
    private readonly options: RunLogOptions = {},
  ) {}

  private paint(code: number, text: string): string {
    return this.options.colour ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  private where(run: StepRun | undefined): Where | undefined {
    return run && this.options.where ? this.options.where(run) : undefined;
  }

  private key(run: StepRun): string {
    return `step_${run.step}_${run.name}`;
  }

  stepStarted(run: StepRun, position: string): void {
    if (
      !this.open &&
      this.sink.sectionStart(
        this.key(run),
        neutralise(`${position} ${run.name} (${run.uses})`).replace(/[\r\n]+/g, ' '),
      )
    )
      this.open = run;
    this.sink.line(`${this.paint(36, '▶')} ${position} ${n(run.name)} (${run.uses})`);
  }

  stepFinished(run: StepRun, position: string): void {
    if (this.open === run) {
      this.sink.sectionEnd(this.key(run));
      this.open = undefined;
    }
    const head = `${this.paint(COLOUR[run.outcome], ICON[run.outcome])} ${position} ${n(run.name)}`;
    if (run.outcome === 'skipped') {
      // Not sent again on the operator's word (treated as applied, verify's reading, left in doubt): that, as every report says it.
      const decided = run.decision?.decision === 'skip' ? run.decision : undefined;
      const doubt = run.inDoubt ? 'in doubt: ' : '';
      this.sink.line(`${head}: ${decided ? `${doubt}${n(decisionPhrase(decided, run.attempts !== 0))}` : 'skipped'}`);
      return;
    }
    if (run.outcome === 'cancelled' && run.startedAt === undefined && run.error?.code === 'FAIL_FAST') {
      this.sink.line(`${head}: cancelled: ${n(run.error.message)}`);
      return;
    }
    const figures = run.figures ? `  ${n(run.figures)}` : '';
    const attempts = run.attempts > 1 ? `  (${run.attempts} attempts)` : '';
    // Carried from an earlier run (--resume; a failure a --continue went past): said so, not timed as if it ran now.
    const took =
      run.resume === 'earlier-run'
        ? `${run.outcome === 'failure' ? 'failed' : 'done'} in an earlier run`
        : run.durationMs === undefined
          ? 'unknown'
          : formatDuration(run.durationMs);
    this.sink.line(`${head}  ${took}${figures}${run.resume === 'earlier-run' ? '' : attempts}`);
    if (run.inDoubt && run.outcome !== 'cancelled') {
      const { status } = run.inDoubt;
      // A 2xx whose body was not the API's answer; any other status in doubt is a gateway's or a
      // failing server's, which was read, and says nothing of what the API did.
      const how =
        status === undefined
          ? 'got no answer'
          : run.inDoubt.applied
            ? appliedAnswer(status)
            : status >= 200 && status <= 299
              ? `was answered ${status} but its answer could not be read`
              : `was answered ${status}, which does not say what the server did`;
      const unsaid = run.inDoubt.applied ? '; sending it again applies it twice' : '; the server may have applied it';
      const decided = run.decision ? `; ${n(decisionPhrase(run.decision, run.attempts !== 0))}` : unsaid;
      this.sink.line(`    in doubt: ${run.inDoubt.method} ${n(run.inDoubt.path)} was sent and ${how}${decided}`);
    }
    if (!run.error) return;
    this.sink.line(`    ${run.continuedOnError ? 'failed (continue-on-error)' : 'error'}: ${n(run.error.message)}`);
    if (run.error.hint) this.sink.line(`    hint: ${n(run.error.hint)}`);
    this.sink.line(`    code: ${n(run.error.code)}`);
    if (run.outcome !== 'failure') return;
    // An annotation is rendered by GitHub: server text in it mentions no one (noMentions).
    const message = noMentions(neutralise(`${run.error.message}${run.error.hint ? `\nhint: ${run.error.hint}` : ''}`));
    this.sink.annotate({
      kind: run.continuedOnError ? 'warning' : 'error',
      step: neutralise(run.name),
      failed: { continued: run.continuedOnError === true },
      message,
      where: this.where(run),
    });
  }

  info(run: StepRun | undefined, message: string): void {
    this.sink.line(`  ${run ? `${n(run.name)}: ` : ''}${n(message)}`);
  }

  warn(run: StepRun | undefined, message: string): void {
    const shown = this.sink.annotate({
      kind: 'warning',
      step: run ? neutralise(run.name) : undefined,
      message: neutralise(message),
      where: this.where(run),
    });
    if (!shown) this.sink.line(`  ${this.paint(33, 'warning')} ${run ? `${n(run.name)}: ` : ''}${n(message)}`);
  }
}
