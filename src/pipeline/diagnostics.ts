// Validation findings as FILE:LINE:COL message, with the offending line and a hint.
import { EnginectlError, ExitCode } from '../errors.ts';

export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  message: string;
  hint?: string | undefined;
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

export function formatDiagnostic(d: Diagnostic, source?: string): string {
  const out = [`${d.file}:${d.line}:${d.col} ${oneLine(d.message)}`];
  const text = source?.split(/\r?\n/)[d.line - 1];
  if (text !== undefined) {
    const gutter = String(d.line).length;
    const { shown, caret } = frame(text, d.col);
    out.push(`  ${String(d.line)} | ${shown}`);
    out.push(`  ${' '.repeat(gutter)} | ${' '.repeat(Math.max(0, caret))}^`);
  }
  if (d.hint) out.push(`  hint: ${oneLine(d.hint)}`);
  return out.join('\n');
}

/** An invalid pipeline: every finding, in file order. Exit 2. */
export class PipelineInvalid extends EnginectlError {
  readonly code = 'PIPELINE_INVALID';
  readonly exitCode = ExitCode.invalidInput;

  constructor(
    readonly diagnostics: Diagnostic[],
    readonly source: string | undefined,
  ) {
    super(`${diagnostics.length} problem(s) in ${diagnostics[0]?.file ?? 'the pipeline'}`);
  }

  override describe(): string {
    return `${this.diagnostics.map((d) => formatDiagnostic(d, this.source)).join('\n')}\n${this.message}`;
  }
}

/** The closest of `candidates` to `word`, when it is close enough to be a likely typo. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1),
        i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] ? prev : Infinity);
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}
