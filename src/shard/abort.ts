// The operator's abort of a sharded rollout (decide --abort) as its halt carries it: who, when and
// why as decide recorded them (each wave's log's abort entry), and the words made from them for
// the terminal and the reports. Readers use the fields, never the words: an identity and a reason
// are free text, and may hold what the words put after them (", 2026-…Z): ").
import { z } from 'zod';

/** The operator's abort of a sharded rollout, as decide recorded it (its log entries, its verdict, the reports' rollout.halted.aborted). */
export const AbortSchema = z.object({
  by: z.string().describe('who aborted it (the CI identity, at the host)'),
  at: z.number().describe("when, on the run's clock (epoch ms)"),
  reason: z.string().describe('why, as the operator said (--reason)'),
});
export type Abort = z.infer<typeof AbortSchema>;

/** What of a wave's verdict (verdict.ts) says its halt. */
interface Decided {
  wave: number;
  halted?: string | undefined;
  aborted?: Abort | undefined;
  text: string;
}

/** An abort's halted verdict's `text` (the analysis, in words), every version's. */
export const ABORTED = 'aborted by the operator';

/** The rollout halted by the operator's abort, in words: who, when, why. */
export const abortedBy = (a: Abort) => `${ABORTED} (${a.by}, ${new Date(a.at).toISOString()}): ${a.reason}`;

/** An abort's fields, of a wave's log's entry or of decide's decision. */
export const abortOf = (a: Abort): Abort => ({ by: a.by, at: a.at, reason: a.reason });

/** The halt at `wave` an abort made: its fields, and its words. */
export const abortHalt = (wave: number, a: Abort) => ({ wave, reason: abortedBy(a), aborted: abortOf(a) });

/** The halt a wave's verdict says, if it halted: an abort's fields when it was one (this version's verdict holds them). */
export function haltOf(v: Decided): { wave: number; reason: string; aborted: Abort | null } | undefined {
  if (v.halted === undefined) return undefined;
  return v.aborted ? abortHalt(v.wave, v.aborted) : { wave: v.wave, reason: v.halted, aborted: null };
}

/**
 * A halted verdict an earlier enginectl wrote for an abort: its words alone, no `aborted`. Its
 * fields are its wave's log's abort entry, from which it was made (shard-rollout.ts earlierAbort):
 * never read back from the words.
 */
export const earlierAbortVerdict = (v: Decided) =>
  v.aborted === undefined && v.text === ABORTED && v.halted?.startsWith(`${ABORTED} (`) === true;
