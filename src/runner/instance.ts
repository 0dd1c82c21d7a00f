// A step instance, once: its schema is the runner's StepRun, the journal's end record (parsed with
// it) and, each absent value null and each time ISO 8601, the report's step (report/model.ts). A
// field added here is in all three; besides, only the code that fills it changes (and, for the
// report's contract, its line in docs/report-format.md and `npm run schema`). newInstance makes one
// before it runs; carry (instance-end.ts) copies CARRIED_FIELDS of one that ended in an earlier run.
import { z } from 'zod';
import type { ErrorCode } from '../error-codes.ts';

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

export const StepErrorSchema = z.object({
  code: z.custom<ErrorCode>((v) => typeof v === 'string').describe('an error code (docs/error-codes.md)'),
  message: z.string().describe('what failed, for a person'),
  hint: z.string().optional().describe('what to do'),
});
export type StepError = z.infer<typeof StepErrorSchema>;

/** A non-idempotent call whose fate the run cannot prove: the server may have applied it. */
export const InDoubtSchema = z.object({
  method: z.string().max(16).describe('the method of the call'),
  path: z.string().describe('its path'),
  status: z
    .int()
    .optional()
    .describe('the status line the server sent, when it arrived (a 2xx whose answer could not be read)'),
  applied: z
    .literal(true)
    .optional()
    .describe(
      'the server answered 2xx and its answer was read: it applied the write, and the step failed on it or after it (or was stopped before it ended); sending it again applies it twice',
    ),
});
export type InDoubtCall = z.infer<typeof InDoubtSchema>;

/** What the operator decided about an in-doubt call (run --resume --in-doubt). */
export const DecisionSchema = z.object({
  decision: z
    .enum(['skip', 'retry'])
    .describe('skip: treated as applied (or, leftFailed, left as it failed), not sent again; retry: sent again'),
  /** Who decided: the CI actor, or the user and host of the process that was told. */
  by: z.string().describe('who decided'),
  at: z.number(),
  /** What reading the target back found, when the decision came from --in-doubt verify. */
  verdict: z
    .enum(['applied', 'not-applied', 'cannot-tell'])
    .optional()
    .describe('what reading the target back found (--in-doubt verify)'),
  evidence: z.string().optional().describe('what reading the target back showed'),
  /**
   * Not sent again on the operator's word to go on without it (decide --exclude, --continue), while
   * verify did not read it applied: its fate is still unknown, so it is not treated as applied, a
   * run with it does not end clean, and only the run that goes on from that park carries it.
   */
  leftInDoubt: z
    .literal(true)
    .optional()
    .describe(
      "not sent again on the operator's word to go on without it (decide --exclude, --continue), verify not having read it applied: still in doubt, not treated as applied",
    ),
  /**
   * A value of a parked rollout that failed (a write the server refused, a gate), not sent again on the
   * operator's word (decide --skip, --exclude, or the wave's --continue): its failure stands (its error),
   * never treated as applied.
   */
  leftFailed: z
    .literal(true)
    .optional()
    .describe(
      "not sent again on the operator's word about a value of a parked rollout that failed (decide --skip, --exclude, --continue): its failure (`error`) stands, never treated as applied",
    ),
  /** Why, as the operator said it (decide --reason), on a value left on its word. */
  reason: z
    .string()
    .optional()
    .describe('why, as the operator said it (decide --reason), of a value left on that word'),
  /** Recorded and not acted on yet (a resume killed first, or decide on a parked run): the run that goes on does. */
  pending: z
    .literal(true)
    .optional()
    .describe(
      'recorded and not acted on yet (the resume that recorded it was killed first, or decide recorded it on a parked run): the run that goes on (--resume, --continue) does',
    ),
});
export type Decision = z.infer<typeof DecisionSchema>;

/** A write's admission into its window (runner/admission.ts; pipeline-format.md, Windows and freezes). Times ISO 8601. */
export const WindowVerdictSchema = z.object({
  verdict: z
    .enum(['fits', 'overrun', 'frozen', 'closed'])
    .describe('fits, would overrun its window, inside (or running into) a freeze, or no window open'),
  at: z.string().describe('when it was judged: the instant the write would have started (ISO 8601)'),
  expectedMs: z.number().describe("the write's expected duration, before the margin"),
  expectedFrom: z
    .enum(['declared', 'history', 'timeout', 'longest', 'default'])
    .describe('where it came from: expected:, the p95 of earlier durations, timeout:, longest:, the 1h default'),
  needMs: z.number().describe('the expected duration plus the margin: what must fit'),
  windowEnd: z
    .string()
    .optional()
    .describe('the end of the window it starts in (ISO 8601); null for a site without windows'),
  freeze: z.string().optional().describe('the freeze it meets'),
  frozenUntil: z.string().optional().describe('when that freeze ends (ISO 8601)'),
  next: z
    .string()
    .optional()
    .describe('when it did not fit: the next window it fits in (ISO 8601); null if none within 400 days'),
  waitedMs: z
    .number()
    .optional()
    .describe(
      "how long the write waited before it started or was refused, on the run's clock: for the application to be quiet, and (the first write a continue admits) since the run parked for its window",
    ),
  staying: z
    .array(z.string())
    .optional()
    .describe('quiet: the application sessions that stayed at the last read, when the window ended before quiet came'),
  override: z
    .object({
      by: z.string().describe("who overrode: the CI's actor, listed in override-freeze:"),
      reason: z.string().describe('why, as --reason said'),
      as: z
        .string()
        .optional()
        .describe(
          'the override-freeze: rule it met: an actor, or the facts of the CI identity (actor alice, ref refs/heads/main)',
        ),
    })
    .optional()
    .describe('started although it did not fit: who overrode (--override-freeze), and why'),
});
export type WindowVerdict = z.infer<typeof WindowVerdictSchema>;

export const OutcomeSchema = z.enum(['success', 'failure', 'skipped', 'cancelled']);
export type Outcome = z.infer<typeof OutcomeSchema>;

/** A run's outcome (result.ts runOutcome): the run's result, the journal's finish record, every report. */
export const RunOutcomeSchema = z.enum(['success', 'failure', 'cancelled']);

/** What names an instance before it runs: what a run plans (the journal's run record keeps it). */
export const InstanceIdentity = z.object({
  /** The instance in the file: its step's identity and matrix values; stable across runs (resume). */
  key: z.string(),
  step: z.int().nonnegative().describe('index of the step in the file, from 0'),
  id: z.string().optional().describe("the step's id; null without one"),
  name: z.string().describe('the instance name, resolved: "System update (target=prod)"'),
  uses: z.string().describe('the step type'),
  matrix: z
    .record(z.string(), Scalar)
    .optional()
    .describe("the instance's matrix values; null for a step without a matrix"),
  server: z.string().optional().describe('the server it called, by name; null for a step that calls none'),
});
export type PlannedInstance = z.infer<typeof InstanceIdentity>;

export const StepInstance = InstanceIdentity.extend({
  outcome: OutcomeSchema.describe('success, failure, skipped or cancelled'),
  continuedOnError: z.boolean().describe('a failure that continue-on-error let pass'),
  startedAt: z.number().optional(),
  durationMs: z.number().optional().describe('null when unknown: an instance a killed run ended in the middle of'),
  attempts: z.int().nonnegative().describe('attempts made (retry)'),
  inputs: z.record(z.string(), z.unknown()).describe('resolved inputs, secrets masked'),
  target: z
    .string()
    .optional()
    .describe('the target database the step updates, resolved: "PROD on prod-db.example.com"'),
  outputs: z.record(z.string(), z.unknown()).describe('outputs, secrets masked'),
  figures: z.string().optional().describe('key figures, as the terminal shows them'),
  /** What failed: an error of a call, or the step's own failure (success false, gate, assertion). */
  error: StepErrorSchema.optional(),
  warnings: z.array(z.string()).describe('warnings it raised'),
  result: z.unknown().describe('the API result (update result, replication results, ...), secrets masked'),
  inDoubt: InDoubtSchema.optional().describe(
    'a non-idempotent call that was sent and whose fate is unknown: the server may have applied it',
  ),
  /** The operator's decision about that call: kept in every report, never turned into a success. */
  decision: DecisionSchema.optional(),
  resume: z
    .enum(['earlier-run', 'resumed'])
    .optional()
    .describe('on a resumed run: done in an earlier run, or run again now'),
  /** When done in an earlier run: when that run started. */
  earlierRunAt: z.number().optional(),
  /** In a rollout: the wave it belongs to (1-based), and for an analysis gate its round. */
  wave: z.int().optional(),
  round: z.int().optional(),
  window: WindowVerdictSchema.optional().describe(
    "a write's admission into its window: absent without windows: or freezes:",
  ),
});

/** A step instance: what the runner fills, the journal keeps and every report renders. */
export type StepRun = z.infer<typeof StepInstance>;

/**
 * A fresh instance, nothing run yet: cancelled until it ends (an instance a run never reached
 * stays so). The keys in the order the journal has always written them.
 */
export function newInstance(identity: PlannedInstance, rest: Partial<StepRun> = {}): StepRun {
  return {
    key: identity.key,
    ...(rest.resume ? { resume: rest.resume } : {}),
    step: identity.step,
    id: identity.id,
    name: identity.name,
    uses: identity.uses,
    matrix: identity.matrix,
    server: identity.server,
    outcome: 'cancelled',
    continuedOnError: false,
    startedAt: undefined,
    durationMs: undefined,
    attempts: 0,
    inputs: {},
    outputs: {},
    figures: undefined,
    error: undefined,
    warnings: [],
    result: null,
    ...rest,
  };
}

/** An instance's identity, as a run plans it. */
export function identityOf(run: PlannedInstance): PlannedInstance {
  return Object.fromEntries(IDENTITY_KEYS.map((k) => [k, run[k]])) as PlannedInstance;
}

const IDENTITY_KEYS = Object.keys(InstanceIdentity.shape) as (keyof PlannedInstance)[];

/** What an instance carried from an earlier run takes of it: all but its identity and place in a rollout. */
export const CARRIED_FIELDS = (Object.keys(StepInstance.shape) as (keyof StepRun)[]).filter(
  (k) => !(k in InstanceIdentity.shape) && k !== 'wave' && k !== 'round',
);
