// The run's result: one record per step instance, the model every report renders.

import type { MatrixValue, Selection } from '../pipeline/selection.ts';
import type { Decision, RunOutcomeSchema, StepRun } from './instance.ts';
import type { z } from 'zod';
import type { OperatorDecision, Park, RolloutResult } from './rollout-result.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

export type { Decision, InDoubtCall, Outcome, StepError, StepRun } from './instance.ts';
export type { RolloutResult, WaveOutcome, WaveResult } from './rollout-result.ts';

/** What to do about an in-doubt call, in the words of the surface in use: said by the run that saw it and by a report of its journal. */
export const inDoubtHint = (ways: WaysOn = CLI_WAYS): string =>
  `read the target back with ${ways.readBack}; where it cannot tell, check on the server, then resume with ${ways.inDoubt('skip')} (it was applied) or ${ways.inDoubt('retry')} (it was not, or it is to be repeated)`;

/** Who decides to send a write again after an attempt in doubt, when the pipeline's retry says so (its `by`). */
export const PIPELINE_DECIDES = 'the pipeline (retry: { in-doubt: retry })';

/**
 * What a decision about an in-doubt call says in every report and the terminal, after "in doubt: ":
 * an operator's (--in-doubt, decide, verify's reading), or the pipeline's `in-doubt: retry` policy.
 */
export function decisionPhrase(
  d: {
    decision: Decision['decision'];
    by: string;
    verdict?: Decision['verdict'] | null;
    evidence?: string | null | undefined;
    leftInDoubt?: true | null | undefined;
    leftFailed?: true | null | undefined;
    reason?: string | null | undefined;
    pending?: true | null | undefined;
  },
  sent = true,
  ways: WaysOn = CLI_WAYS,
): string {
  // Recorded and not acted on (a resume killed first, or decide on a parked run): the run that goes on acts on it.
  if (d.pending)
    return `${decisionPhrase({ ...d, pending: null }, false)}; not acted on yet: the run that goes on (${ways.goOnDecided}) acts on it`;
  // A value that failed (its write refused, a gate), left on the operator's word: its failure stands.
  if (d.leftFailed)
    return `not sent again: left as it failed by the operator's decision (${d.by}${d.reason ? `: ${d.reason}` : ''})`;
  // The pipeline's policy sent it again: no operator decided, so none is named.
  if (d.by === PIPELINE_DECIDES && !d.verdict && !d.leftInDoubt)
    return `${sent ? '' : 'to be '}sent again by the pipeline's in-doubt: retry policy${sent ? '' : ', not sent yet'}`;
  const left = `not sent again: left in doubt by the operator's decision to go on without it (${d.by})`;
  if (d.leftInDoubt && !d.verdict) return left;
  if (!d.verdict)
    return d.decision === 'skip'
      ? `treated as applied by the operator (${d.by})`
      : sent
        ? `sent again by the operator's decision (${d.by})`
        : `to be sent again by the operator's decision (${d.by}), not sent yet`;
  const read = d.verdict === 'applied' ? 'applied' : d.verdict === 'not-applied' ? 'not applied' : 'cannot tell';
  const again = d.decision === 'skip' ? 'not sent again' : sent ? 'sent again' : 'to be sent again, not sent yet';
  const then = d.leftInDoubt ? left : `${again} (${d.by})`;
  return `verify read the target: ${read}${d.evidence ? ` (${d.evidence})` : ''}; ${then}`;
}

export interface RunResult {
  file: string;
  name: string;
  outcome: z.infer<typeof RunOutcomeSchema>;
  startedAt: number;
  durationMs: number;
  steps: StepRun[];
  /** --only and --skip, when the run was limited to some matrix instances. */
  selection?: Selection | undefined;
  /** Every value of each matrix key of the pipeline: the instances its whole fleet has. */
  matrix?: Record<string, MatrixValue[]> | undefined;
  /** `sha256:<hex>` of the pipeline's files (the pipeline and its includes) and --var values: reports of one pipeline share it. */
  pipelineSha256?: string | undefined;
  /** A rollout in waves: each wave's values and what became of it, and where it halted. */
  rollout?: RolloutResult | undefined;
  /** Where the run parked (a rollout's park, or a write waiting for its next window), to go on with run --continue. */
  parked?: Park | undefined;
  /** The operator's word to go on past the wave a rollout halted at (--continue-rollout): who, when. */
  continued?: { wave: number; by: string; at: number } | undefined;
  /** The operator's decisions about a parked run this run went on with (enginectl decide). */
  decided?: OperatorDecision[] | undefined;
  /** The fleet lease the run held: who, how long it waited, and a takeover's evidence. */
  lease?:
    | { name: string; holder: string; waitedMs: number; takeover: { evidence: string[]; reason: string | null } | null }
    | undefined;
  /** A resume: the journal it resumed, and the pipeline that wrote it when that is not this one (--force). */
  resumedFrom?: { journal: string; name: string; file: string; samePipeline: boolean } | undefined;
}

export interface StepCounts {
  total: number;
  success: number;
  failure: number;
  skipped: number;
  cancelled: number;
  inDoubt: number;
  /** In-doubt calls the operator decided to treat as applied (--in-doubt skip). */
  treatedAsApplied: number;
}

/** A decision as the counts read it: a run's (Decision) or a report's (its nulls). */
type DecisionView = { decision: string; leftInDoubt?: true | null | undefined; pending?: true | null | undefined };

/** An in-doubt call the operator's word settled as applied (--in-doubt skip, or verify reading it applied): acted on, not left in doubt. */
export const treatedAsApplied = (s: { inDoubt?: unknown; decision?: DecisionView | null | undefined }): boolean =>
  Boolean(s.inDoubt) && s.decision?.decision === 'skip' && !s.decision.leftInDoubt && !s.decision.pending;

/** Step runs by outcome: the one count the terminal, the reports and the summary all show. */
export function countSteps(
  steps: readonly (Pick<StepRun, 'outcome'> & {
    inDoubt?: unknown;
    decision?: DecisionView | null | undefined;
  })[],
): StepCounts {
  const counts: StepCounts = {
    total: steps.length,
    success: 0,
    failure: 0,
    skipped: 0,
    cancelled: 0,
    inDoubt: 0,
    treatedAsApplied: 0,
  };
  for (const s of steps) {
    if (s.inDoubt) counts.inDoubt++;
    // Treated as applied on the operator's word: counted as that, never as a success.
    if (treatedAsApplied(s)) counts.treatedAsApplied++;
    else counts[s.outcome]++;
  }
  return counts;
}

/** "3 succeeded, 1 failed, 1 in doubt": the outcomes that occurred. */
export function countsPhrase(c: StepCounts): string {
  const parts = [
    `${c.success} succeeded`,
    `${c.failure} failed`,
    `${c.skipped} skipped`,
    `${c.cancelled} cancelled`,
    `${c.inDoubt} in doubt`,
    // The operator's --in-doubt skip, or verify reading it applied: each instance's decision says which.
    `${c.treatedAsApplied} treated as applied`,
  ].filter((p) => !p.startsWith('0 '));
  return parts.join(', ') || 'none';
}

/** What a run's outcome is decided from: its instances and its rollout, in any of their forms (the runner's, the journal's, a report's). */
export interface OutcomeView {
  outcome: StepRun['outcome'];
  continuedOnError: boolean;
  error?: { code: string } | null | undefined;
  round?: number | null | undefined;
}

/**
 * The steps that left a write in doubt no one settled (treated as applied): a run with any does not end clean (exit 1,
 * whatever its outcome: continue-on-error lets a failure pass, not a doubt), for run, report and
 * the actions alike.
 */
export function undecidedDoubts<
  S extends {
    inDoubt?: unknown;
    decision?: DecisionView | null | undefined;
  },
>(steps: readonly S[]): S[] {
  // A decision to send again was acted on: the doubt it left is undecided (journal/read.ts standingDecision);
  // one left in doubt by going on without it was never decided; one a killed resume recorded is not acted on yet.
  return steps.filter((s) => s.inDoubt && !treatedAsApplied(s));
}

/**
 * What a run that ended with such steps says of them (its outcome a success, its exit 1), in the
 * words of the surface in use: continue-on-error named only when one of them has it.
 */
export const doubtsLine = (
  doubts: readonly { continuedOnError?: boolean | null | undefined }[],
  ways: WaysOn = CLI_WAYS,
) =>
  `${doubts.length} step run(s) left a write in doubt: ${doubts.some((s) => s.continuedOnError) ? 'continue-on-error lets a failure pass, not a doubt' : 'a doubt waits for a decision, whatever the outcome'}; check it on the server, or decide it from the run's journal (${ways.resumeDeciding('skip|retry|verify')})`;

/** Cancelled because another failed or a rollout halted (or parked): what ran decides the outcome, not the cancellation. */
const FAILURE_CONSEQUENCES: readonly string[] = ['FAIL_FAST', 'ROLLOUT_HALTED', 'ROLLOUT_PARKED', 'WINDOW_PARKED'];

/**
 * A run's outcome from its instances, the one rule the run, a journal's release and a merged
 * report's jobs all use: cancelled when an instance was (interrupted, killed, not started, in
 * doubt), unless a failure cancelled it (fail-fast, a halted rollout); failed when an instance
 * failed and continue-on-error did not let it pass, or a rollout halted or had a value fail (also
 * within a wave's budget); else a success. An analysis round's failure is its wave's to weigh.
 */
export function runOutcome(
  steps: readonly OutcomeView[],
  rollout?: { halted?: unknown; waves: readonly { failed: readonly string[] }[] } | null,
): RunResult['outcome'] {
  const counted = steps.filter((s) => s.round === undefined || s.round === null);
  if (counted.some((s) => s.outcome === 'cancelled' && !FAILURE_CONSEQUENCES.includes(s.error?.code ?? '')))
    return 'cancelled';
  if (counted.some((s) => s.outcome === 'failure' && !s.continuedOnError)) return 'failure';
  if (rollout && (rollout.halted || rollout.waves.some((w) => w.failed.length > 0))) return 'failure';
  return 'success';
}

/** The start of the warning of a write started outside its window by an override (admission.ts): every report shows it. */
export const WINDOW_OVERRIDDEN = 'window overridden by';
export const isWindowOverride = (warning: string): boolean => warning.startsWith(WINDOW_OVERRIDDEN);

/** Where a run parked: its own park (a write waiting for its window), else its rollout's. */
export const parkedOf = (result: Pick<RunResult, 'parked' | 'rollout'>): Park | undefined =>
  result.parked ?? result.rollout?.parked;
