// The journal's records, version 2: the journal's own on-disk format, parsed with a schema like
// any input (a forged or damaged record is refused at its line, never trusted). Every value in
// them is masked; what identifies the run is a keyed hash (HMAC-SHA-256 with the journal's own
// random salt), so a journal is never an offline check of a secret.
import type { Selection } from '../pipeline/selection.ts';
import { z } from 'zod';

export const JOURNAL_VERSION = 2;

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const Matrix = z.record(z.string(), Scalar);
const Call = { method: z.string().max(16), path: z.string() };

export const StepErrorRecord = z.object({ code: z.string(), message: z.string(), hint: z.string().optional() });

export const DecisionRecord = z.object({
  decision: z.enum(['skip', 'retry']),
  /** Who decided: the user and host of the process that was told, or the CI actor. */
  by: z.string(),
  at: z.number(),
  /** What `verify` read on the target, when the decision came from it. */
  verdict: z.enum(['applied', 'not-applied', 'cannot-tell']).optional(),
  evidence: z.string().optional(),
});

export const InDoubtRecord = z.object({ ...Call, status: z.int().optional() });

/** An instance a run plans: its identity, step, names and matrix values. */
export const PlannedRecord = z.object({
  key: z.string(),
  step: z.int().nonnegative(),
  id: z.string().optional(),
  name: z.string(),
  uses: z.string(),
  matrix: Matrix.optional(),
  server: z.string().optional(),
});
export type PlannedInstance = z.infer<typeof PlannedRecord>;

/** A step instance as the journal keeps it: what every report shows of it. */
export const StepRunRecord = PlannedRecord.extend({
  outcome: z.enum(['success', 'failure', 'skipped', 'cancelled']),
  continuedOnError: z.boolean(),
  startedAt: z.number().optional(),
  durationMs: z.number().optional(),
  attempts: z.int().nonnegative(),
  inputs: z.record(z.string(), z.unknown()),
  target: z.string().optional(),
  outputs: z.record(z.string(), z.unknown()),
  figures: z.string().optional(),
  error: StepErrorRecord.optional(),
  warnings: z.array(z.string()),
  result: z.unknown(),
  inDoubt: InDoubtRecord.optional(),
  decision: DecisionRecord.optional(),
  resume: z.enum(['earlier-run', 'resumed']).optional(),
  earlierRunAt: z.number().optional(),
  wave: z.int().optional(),
  round: z.int().optional(),
});

const Hash = z.string().regex(/^hmac-sha256:[0-9a-f]{64}$/);

export const RunRecord = z.object({
  t: z.literal('run'),
  v: z.literal(JOURNAL_VERSION),
  at: z.number(),
  file: z.string(),
  name: z.string(),
  /** The key of every hash in this journal (random, per journal; a resume reuses it). */
  salt: z.string().regex(/^[0-9a-f]{32}$/),
  /** Of every file the pipeline reads (the pipeline, its includes), in order. */
  hash: Hash,
  files: z.array(z.object({ path: z.string(), hash: Hash })),
  vars: z.record(z.string(), z.unknown()),
  varsHash: Hash,
  /** --only and --skip: each key with its values. */
  only: z.record(z.string(), z.array(z.string())),
  skip: z.record(z.string(), z.array(z.string())).optional(),
  /** The servers' URLs, masked: a resume warns when they differ. */
  servers: z.record(z.string(), z.string()),
  resume: z.boolean(),
  instances: z.array(PlannedRecord),
  /** The pipeline's files, hashed plainly (app/pipeline-input.ts): what `report --merge` compares. */
  sha256: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .optional(),
  /** Every value of each matrix key: the instances the pipeline's whole fleet has. */
  matrix: z.record(z.string(), z.array(z.union([z.string(), z.number(), z.boolean()]))).optional(),
});

/** The selection a run record kept (a journal written before --skip has none). */
export function selectionOf(run: RunRecord): Selection {
  return { only: run.only, skip: run.skip ?? {} };
}

/** A rollout's waves as the run ended them (result.ts RolloutResult), for the reports of the journal. */
const RolloutRecord = z.object({
  over: z.string(),
  waves: z.array(
    z.object({
      wave: z.int(),
      values: z.array(z.string()),
      outcome: z.enum(['done', 'failed-within-budget', 'halted', 'not-started', 'cancelled']),
      failed: z.array(z.string()),
      budget: z.int(),
      analysis: z.object({ passed: z.boolean(), rounds: z.int(), failedRounds: z.int(), text: z.string() }).optional(),
    }),
  ),
  halted: z.object({ wave: z.int(), reason: z.string() }).optional(),
});

export const JournalRecordSchema = z.discriminatedUnion('t', [
  RunRecord,
  z.object({ t: z.literal('start'), key: z.string(), at: z.number(), name: z.string(), inputs: Hash.optional() }),
  // What a write's verifier read just before it was sent (or why it could not), masked.
  z.object({
    t: z.literal('snapshot'),
    key: z.string(),
    at: z.number(),
    value: z.unknown().optional(),
    error: z.string().optional(),
  }),
  z.object({ t: z.literal('send'), key: z.string(), at: z.number(), ...Call, body: z.unknown() }),
  z.object({ t: z.literal('status'), key: z.string(), at: z.number(), ...Call, status: z.int() }),
  // How a call ended: its status and whether the body was the API's (api/fate.ts reads its fate from these), or the error that ended it.
  z.object({
    t: z.literal('answer'),
    key: z.string(),
    at: z.number(),
    ...Call,
    status: z.int().optional(),
    api: z.boolean().optional(),
    error: z.string().optional(),
    unknown: z.boolean().optional(),
  }),
  z.object({
    t: z.literal('end'),
    key: z.string(),
    at: z.number(),
    run: StepRunRecord,
    masked: z.array(z.string()),
    inputs: Hash.optional(),
    /** Outputs left out because they are a field of the result (an update's report): output name -> result field. */
    fromResult: z.record(z.string(), z.string()).optional(),
  }),
  z.object({ t: z.literal('decision'), key: z.string(), ...DecisionRecord.shape, ...Call }),
  z.object({ t: z.literal('finish'), at: z.number(), outcome: z.enum(['success', 'failure', 'cancelled']) }),
  // A rollout halted at a wave (nothing undone), and the operator's word to go on past it on a resume.
  z.object({ t: z.literal('halt'), at: z.number(), wave: z.int(), reason: z.string() }),
  z.object({ t: z.literal('continue'), at: z.number(), by: z.string(), wave: z.int() }),
  z.object({ t: z.literal('rollout'), at: z.number(), result: RolloutRecord }),
]);
export type JournalRecord = z.infer<typeof JournalRecordSchema>;
export type RunRecord = z.infer<typeof RunRecord>;
