// Run output for a terminal or a CI log: one line per step start and end with its duration and
// key figures; colour only on a TTY and without NO_COLOR. Text that may come from the server or
// the file (names, figures, messages) is neutralised, so it cannot carry CI commands or escapes.
import { neutralise as n } from '../ci/neutralise.ts';
import { formatDuration } from '../duration.ts';
import type { RunLogger } from '../runner/logger.ts';
import type { RunResult, StepRun } from '../runner/result.ts';

const ICON: Record<StepRun['outcome'], string> = { success: '✔', failure: '✖', skipped: '-', cancelled: '■' };
const COLOUR: Record<StepRun['outcome'], number> = { success: 32, failure: 31, skipped: 90, cancelled: 33 };

export function useColour(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

export class TerminalLogger implements RunLogger {
  constructor(
    private readonly write: (line: string) => void,
    private readonly colour: boolean,
  ) {}

  private paint(code: number, text: string): string {
    return this.colour ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  stepStarted(run: StepRun, position: string): void {
    this.write(`${this.paint(36, '▶')} ${position} ${n(run.name)} (${run.uses})\n`);
  }

  stepFinished(run: StepRun, position: string): void {
    const icon = this.paint(COLOUR[run.outcome], ICON[run.outcome]);
    const head = `${icon} ${position} ${n(run.name)}`;
    if (run.outcome === 'skipped') {
      this.write(`${head}: skipped\n`);
      return;
    }
    const figures = run.figures ? `  ${n(run.figures)}` : '';
    const attempts = run.attempts > 1 ? `  (${run.attempts} attempts)` : '';
    this.write(`${head}  ${formatDuration(run.durationMs)}${figures}${attempts}\n`);
    if (run.inDoubt && run.outcome !== 'cancelled') this.write(`    in doubt: ${run.inDoubt.method} ${n(run.inDoubt.path)} was sent and got no answer; the server may have applied it\n`);
    if (run.error) {
      this.write(`    ${run.continuedOnError ? 'failed (continue-on-error)' : 'error'}: ${n(run.error.message)}\n`);
      if (run.error.hint) this.write(`    hint: ${n(run.error.hint)}\n`);
    }
  }

  info(run: StepRun | undefined, message: string): void {
    this.write(`  ${run ? `${n(run.name)}: ` : ''}${n(message)}\n`);
  }

  warn(run: StepRun | undefined, message: string): void {
    this.write(`  ${this.paint(33, 'warning')} ${run ? `${n(run.name)}: ` : ''}${n(message)}\n`);
  }
}

export function summaryLine(result: RunResult): string {
  const count = (o: StepRun['outcome']) => result.steps.filter((s) => s.outcome === o).length;
  const doubt = result.steps.filter((s) => s.inDoubt).length;
  const parts = [`${count('success')} succeeded`, `${count('failure')} failed`, `${count('skipped')} skipped`, `${count('cancelled')} cancelled`, `${doubt} in doubt`].filter((p) => !p.startsWith('0 '));
  return `pipeline "${n(result.name)}": ${result.outcome} in ${formatDuration(result.durationMs)} (${result.steps.length} step run(s): ${parts.join(', ')})`;
}
