// A pipeline's schedule as the loader leaves it (windows:, freezes:, schedule:): each window and
// freeze named, with what it applies to (a matrix selector: every instance whose matrix has one of
// the values; none: the whole fleet), and the site's Schedule an instance is under.
import { dated, recurring, type Interval } from './recurrence.ts';
import type { Named, Schedule } from './schedule.ts';
import type { OverrideRule } from './override.ts';
import type { QuietSpec } from './quiet-spec.ts';

type Scalar = string | number | boolean;

/** A recurrence: a cron expression read in a zone, each occurrence open this long. */
export interface RecurrenceSpec {
  cron: string;
  zone: string;
  durationMs: number;
}

export interface WindowSpec extends RecurrenceSpec {
  name: string;
  quiet?: QuietSpec | undefined;
  /** The instances it applies to: each key's value one of those listed; absent: every instance. */
  matrix?: Readonly<Record<string, readonly Scalar[]>> | undefined;
}

/** A freeze: a recurrence, or dated ranges (epoch ms), or both. */
export interface FreezeSpec {
  name: string;
  recurrence?: RecurrenceSpec | undefined;
  dates?: readonly Interval[] | undefined;
  matrix?: Readonly<Record<string, readonly Scalar[]>> | undefined;
}

/** A margin on the expected duration: a share of it (0.1 for 10%), or a fixed time. */
export type Margin = { share: number } | { ms: number };

export interface ScheduleSpec {
  windows: readonly WindowSpec[];
  freezes: readonly FreezeSpec[];
  margin: Margin;
  /** Who may write inside a freeze or outside a window with --override-freeze: an actor, or facts of the CI's identity (override.ts). */
  overrideFreeze: readonly OverrideRule[];
}

/** The margin when the pipeline sets none: a tenth of the expected duration. */
export const DEFAULT_MARGIN: Margin = { share: 0.1 };

/** Whether a selector applies to an instance's matrix values. */
export function applies(
  selector: Readonly<Record<string, readonly Scalar[]>> | undefined,
  matrix: Readonly<Record<string, Scalar>> | undefined,
): boolean {
  if (!selector) return true;
  return Object.entries(selector).every(
    ([key, values]) =>
      matrix !== undefined && Object.hasOwn(matrix, key) && values.some((v) => String(v) === String(matrix[key])),
  );
}

/** The windows and freezes an instance is under. */
export function scheduleFor(spec: ScheduleSpec, matrix: Readonly<Record<string, Scalar>> | undefined): Schedule {
  const windows: Named[] = spec.windows
    .filter((w) => applies(w.matrix, matrix))
    .map((w) => ({ name: w.name, intervals: recurring(w.cron, w.zone, w.durationMs), quiet: w.quiet }));
  const freezes: Named[] = spec.freezes
    .filter((f) => applies(f.matrix, matrix))
    .flatMap((f) => [
      ...(f.recurrence
        ? [{ name: f.name, intervals: recurring(f.recurrence.cron, f.recurrence.zone, f.recurrence.durationMs) }]
        : []),
      ...(f.dates?.length ? [{ name: f.name, intervals: dated(f.dates) }] : []),
    ]);
  return { windows, freezes };
}

/** The need of a write: its expected duration plus the margin. */
export function needOf(expectedMs: number, margin: Margin): number {
  return Math.ceil(expectedMs + ('share' in margin ? expectedMs * margin.share : margin.ms));
}
