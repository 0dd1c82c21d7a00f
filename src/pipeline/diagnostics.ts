// Validation findings as FILE:LINE:COL message, with the offending line and a hint.
import { EnginectlError, ExitCode } from '../errors.ts';

export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  message: string;
  hint?: string | undefined;
  /** The secret this finding says is not set: no problem of a dry run, which stands in for it (load.ts dryRun). */
  unsetSecret?: string | undefined;
}

/** The source line as shown under a finding: at most FRAME_WIDTH characters around the column. */
const FRAME_WIDTH = 120;

function frame(text: string, col: number): { shown: string; caret: number } {
  const line = text.replace(/\t/g, ' ');
  if (line.length <= FRAME_WIDTH) return { shown: line, caret: col - 1 };
  const start = Math.max(0, Math.min(col - 1 - FRAME_WIDTH / 2, line.length - FRAME_WIDTH));
  const head = start > 0 ? '…' : '';
  const tail = start + FRAME_WIDTH < line.length ? '…' : '';
  return { shown: `${head}${line.slice(start, start + FRAME_WIDTH)}${tail}`, caret: col - 1 - start + head.length };
}

/** A message on one line, of a readable length: a key or value quoted in it may be a whole mapping. */
function oneLine(text: string, limit = 300): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ');
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}

/**
 * A finding as printed: its place, its message, its source line framed around the column, its
 * hint. `mask` (the credentials the files hold) is applied to each text before it is cut to its
 * frame or length, so no part of a credential is shown where a cut falls inside it; the caret
 * follows the column in the masked line.
 */
export function formatDiagnostic(d: Diagnostic, source?: string, mask: (text: string) => string = unmasked): string {
  const out = [`${d.file}:${d.line}:${d.col} ${oneLine(mask(d.message))}`];
  const text = source?.split(/\r?\n/)[d.line - 1];
  if (text !== undefined) {
    const gutter = String(d.line).length;
    const col = mask(text.slice(0, d.col - 1)).length + 1;
    const { shown, caret } = frame(mask(text), col);
    out.push(`  ${String(d.line)} | ${shown}`);
    out.push(`  ${' '.repeat(gutter)} | ${' '.repeat(Math.max(0, caret))}^`);
  }
  if (d.hint) out.push(`  hint: ${oneLine(mask(d.hint))}`);
  return out.join('\n');
}

const unmasked = (text: string) => text;

/** An invalid pipeline: every finding, in file order. Exit 2. */
export class PipelineInvalid extends EnginectlError {
  readonly code = 'PIPELINE_INVALID';
  readonly exitCode = ExitCode.invalidInput;
  /** Each message, line and hint masked (formatDiagnostic); never a finding's place. */
  override readonly masksEachText = true;

  constructor(
    readonly diagnostics: Diagnostic[],
    readonly source: string | undefined,
    /** The text of other files the findings are in (inventories a pipeline includes), by name. */
    readonly others: Readonly<Record<string, string>> = {},
  ) {
    super(`${diagnostics.length} problem(s) in ${diagnostics[0]?.file ?? 'the pipeline'}`);
  }

  /**
   * The findings with their source lines; `mask`: the credentials the files hold (runner/file-secrets.ts
   * learnInvalidFileSecrets); `shown`: how many are listed, the others counted (a log GitHub shows).
   */
  override describe(mask: (text: string) => string = unmasked, shown = Infinity): string {
    const listed = this.diagnostics
      .slice(0, shown)
      .map((d) => formatDiagnostic(d, Object.hasOwn(this.others, d.file) ? this.others[d.file] : this.source, mask));
    const more = this.diagnostics.length - listed.length;
    if (more > 0)
      listed.push(
        `… ${more} more problem(s) not shown here: enginectl validate ${this.diagnostics[0]!.file} lists every one`,
      );
    return `${listed.join('\n')}\n${this.message}`;
  }
}

export { didYouMean } from '../did-you-mean.ts';
