// The run's result: one record per step instance, the model every report renders.

export type Outcome = 'success' | 'failure' | 'skipped' | 'cancelled';

export interface StepError {
  code: string;
  message: string;
  hint?: string | undefined;
}

export interface StepRun {
  /** The instance in the file: its step's index and matrix values; stable across runs (resume). */
  key: string;
  /** Index of the step in the file, from 0. */
  step: number;
  id: string | undefined;
  name: string;
  uses: string;
  matrix: Record<string, string | number | boolean> | undefined;
  server: string | undefined;
  outcome: Outcome;
  /** A failure that continue-on-error let pass. */
  continuedOnError: boolean;
  startedAt: number | undefined;
  durationMs: number;
  attempts: number;
  /** Resolved inputs, secrets masked. */
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  figures: string | undefined;
  /** What failed: an error of a call, or the step's own failure (success false, gate, assertion). */
  error: StepError | undefined;
  warnings: string[];
  /** The API result (update result, replication results, ...), secrets masked. */
  result: unknown;
  /** A non-idempotent call that was sent and got no answer: the server may have applied it. */
  inDoubt?: { method: string; path: string } | undefined;
  /** On a resumed run: done in an earlier run (its outputs from the journal), or run again now. */
  resume?: 'earlier-run' | 'resumed' | undefined;
}

export interface RunResult {
  file: string;
  name: string;
  outcome: 'success' | 'failure' | 'cancelled';
  startedAt: number;
  durationMs: number;
  steps: StepRun[];
}

export interface StepCounts {
  total: number;
  success: number;
  failure: number;
  skipped: number;
  cancelled: number;
  inDoubt: number;
}

/** Step runs by outcome: the one count the terminal, the reports and the summary all show. */
export function countSteps(steps: readonly Pick<StepRun, 'outcome' | 'inDoubt'>[]): StepCounts {
  const counts: StepCounts = { total: steps.length, success: 0, failure: 0, skipped: 0, cancelled: 0, inDoubt: 0 };
  for (const s of steps) {
    counts[s.outcome]++;
    if (s.inDoubt) counts.inDoubt++;
  }
  return counts;
}

/** "3 succeeded, 1 failed, 1 in doubt": the outcomes that occurred. */
export function countsPhrase(c: StepCounts): string {
  const parts = [`${c.success} succeeded`, `${c.failure} failed`, `${c.skipped} skipped`, `${c.cancelled} cancelled`, `${c.inDoubt} in doubt`].filter((p) => !p.startsWith('0 '));
  return parts.join(', ') || 'none';
}
