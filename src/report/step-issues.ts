// A step's errors and warnings, told apart by who said them: the server's (the errors and warnings
// its update result holds) and enginectl's own (what the run concluded: a window overridden, a
// write maybe applied twice after a retry of an attempt in doubt). A step's warnings hold both: an
// update's are its result's warnings as it recorded them, then each of enginectl's. The summary
// says each under its own heading, never enginectl's conclusion as the server's word.
import { describeItem } from '../steps/update-result.ts';
import type { ReportStep } from './model.ts';

export interface StepIssues {
  /** What the server's answer said: its errors and warnings. */
  server: { errors: string[]; warnings: string[] };
  /** What enginectl raised of the step itself. */
  own: string[];
}

export function issuesOf(step: Pick<ReportStep, 'result' | 'warnings'>): StepIssues {
  const r = step.result as { errors?: unknown; warnings?: unknown } | null;
  const errors = Array.isArray(r?.errors) ? r.errors.map(describeItem) : [];
  const warnings = Array.isArray(r?.warnings) ? r.warnings.map(describeItem) : [];
  // The step's warnings less the server's, each once: what is left is enginectl's.
  const left = new Map<string, number>();
  for (const w of warnings) left.set(w, (left.get(w) ?? 0) + 1);
  const own = step.warnings.filter((w) => {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    return n === 0;
  });
  return { server: { errors, warnings }, own };
}
