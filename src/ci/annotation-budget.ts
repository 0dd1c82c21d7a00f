// GitHub shows at most 10 error and 10 warning annotations of a step (and 50 of a job) and drops
// the rest unsaid. A step's annotations are offered to a budget: the first of each kind are shown,
// the others held back, and as the step ends the one held back is shown alone, or one annotation
// counts them: never more than GitHub shows, none lost without a word. Of errors, a slot is kept
// for the step's own failure (the action's setFailed, the runner's "exit code 1"). The action's
// toolkit (action/annotation-budget.ts) and the CLI on a GitHub runner (withAnnotationBudget) use it.
import type { CiSystem } from './system.ts';

/** Of each kind, the annotations GitHub shows of a step. */
export const ANNOTATIONS_A_STEP = 10;

export type AnnotationKind = 'error' | 'warning';

/** What ends a step of each kind held back: the one alone, or how many. */
export interface HeldBack<T> {
  kind: AnnotationKind;
  count: number;
  /** The one held back, when it is one. */
  only?: T | undefined;
}

export class AnnotationBudget<T> {
  private readonly shown: Record<AnnotationKind, number> = { error: 0, warning: 0 };
  private readonly held: Record<AnnotationKind, T[]> = { error: [], warning: [] };
  /** Of each kind, one slot for what ends the step; of errors, one more for the step's failure. */
  private readonly slots: Record<AnnotationKind, number> = {
    error: ANNOTATIONS_A_STEP - 2,
    warning: ANNOTATIONS_A_STEP - 1,
  };

  /** Whether to show it now; false: held back, counted as the step ends. */
  offer(kind: AnnotationKind, item: T): boolean {
    if (this.shown[kind] < this.slots[kind]) {
      this.shown[kind]++;
      return true;
    }
    this.held[kind].push(item);
    return false;
  }

  /** Of each kind held back: the one, or how many (once: the budget is empty after). */
  end(): HeldBack<T>[] {
    const out: HeldBack<T>[] = [];
    for (const kind of ['error', 'warning'] as const) {
      const held = this.held[kind];
      if (held.length > 0) out.push({ kind, count: held.length, only: held.length === 1 ? held[0] : undefined });
      this.held[kind] = [];
    }
    return out;
  }
}

/** The annotation that counts those held back. */
export function heldBackMessage(kind: AnnotationKind, count: number): string {
  return `${count} more ${kind}s are not annotated (GitHub shows ${ANNOTATIONS_A_STEP} of a step): ${kind === 'error' ? 'see the log' : 'each is in the log'}`;
}

/**
 * `ci` with its annotations budgeted, where the system has a budget (GitHub): an annotation held
 * back is no line of the CI's (`issue` answers undefined), so the run log prints it as a line of
 * its own (a failed step's lines are in the log already); `end` gives the lines that count them.
 */
export function withAnnotationBudget(ci: CiSystem): CiSystem & { endAnnotations(): string[] } {
  if (!ci.annotationsLimited) return { ...ci, endAnnotations: () => [] };
  const budget = new AnnotationBudget<string>();
  return {
    ...ci,
    issue(kind, message, where) {
      const line = ci.issue(kind, message, where);
      return line === undefined || budget.offer(kind, line) ? line : undefined;
    },
    endAnnotations: () =>
      budget.end().flatMap((h) => h.only ?? ci.issue(h.kind, heldBackMessage(h.kind, h.count)) ?? []),
  };
}
