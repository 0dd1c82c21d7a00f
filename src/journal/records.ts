// The journal's records, versions 2 to 4: the journal's own on-disk format, parsed with a schema like
// any input (a forged or damaged record is refused at its line, never trusted). Every value in
// them is masked; what identifies the run is a keyed hash (HMAC-SHA-256 with the journal's own
// random salt), so a journal is never an offline check of a secret.
import type { Selection } from '../pipeline/selection.ts';
import { z } from 'zod';
import {
  DecisionSchema,
  InstanceIdentity,
  RunOutcomeSchema,
  StepErrorSchema,
  StepInstance,
} from '../runner/instance.ts';
import { OperatorDecisionSchema, ParkSchema, RolloutResultSchema } from '../runner/rollout-result.ts';

const LeaseSchema = z.object({
  name: z.string(),
  holder: z.string(),
  waitedMs: z.number(),
  takeover: z.object({ evidence: z.array(z.string()), reason: z.string().nullable() }).nullable(),
});

/**
 * Version 3 hashes each file the run reads by its SHA-256 (hashing.ts, `fileHash`); version 2 by
 * its text. Version 4 is version 3 written by a run a lease holds: the run record of a run that
 * holds a fleet lease (its `lease` record) or a run of a store (the run's own lease, which says a
 * runner holds it: app/run-own-lease.ts) says 4 (LEASE_JOURNAL_VERSION). An enginectl that reads
 * 2 and 3 knows no lease record, and holds no run lease, or (some of its builds, on a continue)
 * takes a live runner's over as an earlier runner's of the same run: it would read the lease line
 * as damaged, and go on with a stored run a live runner holds (its write in flight read as in
 * doubt, sent again on --in-doubt retry), so it refuses such a journal by its version. A journal
 * file of a run without a store stays 3, readable by those versions. All are read; a journal's hashes are its first run's version's (a
 * resume hashes its files as the journal did, and says so).
 */
export const JOURNAL_VERSION = 3;
export const LEASE_JOURNAL_VERSION = 4;
export const READ_VERSIONS = [2, JOURNAL_VERSION, LEASE_JOURNAL_VERSION] as const;
export type JournalVersion = (typeof READ_VERSIONS)[number];

const Call = { method: z.string().max(16), path: z.string() };

const Hash = z.string().regex(/^hmac-sha256:[0-9a-f]{64}$/);
/** A file's: of its text (version 2), or of its SHA-256 (version 3). */
const FileHash = z.string().regex(/^hmac-sha256(-of-sha256)?:[0-9a-f]{64}$/);

export const RunRecord = z.object({
  t: z.literal('run'),
  v: z.literal(READ_VERSIONS),
  at: z.number(),
  file: z.string(),
  name: z.string(),
  /** The key of every hash in this journal (random, per journal; a resume reuses it). */
  salt: z.string().regex(/^[0-9a-f]{32}$/),
  /** Of every file the pipeline reads (the pipeline, its includes), in order. */
  hash: Hash,
  files: z.array(z.object({ path: z.string(), hash: FileHash })),
  vars: z.record(z.string(), z.unknown()),
  varsHash: Hash,
  /** --only and --skip: each key with its values. */
  only: z.record(z.string(), z.array(z.string())),
  skip: z.record(z.string(), z.array(z.string())).optional(),
  /** The servers' places (api/called-at.ts: their URLs masked, without the user part or a query; an earlier enginectl wrote the URLs as given): a resume warns when they differ. */
  servers: z.record(z.string(), z.string()),
  /**
   * With ENGINECTL_JOURNAL_KEY, of each server whose place (its URL as the client calls it) holds a
   * secret, masked above whatever server it names: the key's fingerprint of the place, the same in
   * every run under the key (sent-server.ts placeId), and the key check; what tells verify where a
   * call in doubt went, and whose write durations these are. Absent without the key, or when no
   * place holds a secret.
   */
  places: z.object({ keyCheck: z.string(), called: z.record(z.string(), z.string()) }).optional(),
  /**
   * run --emulator: each server was a site of the embedded emulator, not the URL above. Its writes
   * took the emulator's milliseconds, which are no history of a real server's (cli/window-options.ts).
   * Absent for a run against the servers, and in a journal of an earlier enginectl (read as one against them).
   */
  emulator: z.literal(true).optional(),
  resume: z.boolean(),
  /** Every instance the run plans: its identity (runner/instance.ts). */
  instances: z.array(InstanceIdentity),
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
  // attempt: the step's attempt (retry:) that sent it, from the second on.
  z.object({
    t: z.literal('send'),
    key: z.string(),
    at: z.number(),
    ...Call,
    body: z.unknown(),
    attempt: z.int().min(2).optional(),
    /** The digest of the inputs the write was sent with (as an end's): a resume tells the call in doubt from the instance as it reads now. */
    inputs: Hash.optional(),
    /**
     * The server's clock as the run last saw it before the write (api/server-clock.ts): the server's
     * minus the run's, in ms, between low and high, as an answer that came at `at` showed it. What
     * verify on another machine counts "since the call" on (journal/since-call.ts). Absent in a
     * journal of an earlier enginectl, and when no answer of the server had a Date: an earlier
     * enginectl reads the record without it.
     */
    clock: z.object({ low: z.number(), high: z.number(), at: z.number() }).optional(),
  }),
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
    /** Written after the first answer: the step read the 2xx body as the server's refusal (an update's success: false). */
    refused: z.boolean().optional(),
  }),
  z.object({
    t: z.literal('end'),
    key: z.string(),
    at: z.number(),
    /** The instance as it ended (runner/instance.ts). */
    run: StepInstance,
    masked: z.array(z.string()),
    inputs: Hash.optional(),
    /** Outputs left out because they are a field of the result (an update's report): output name -> result field. */
    fromResult: z.record(z.string(), z.string()).optional(),
  }),
  z.object({ t: z.literal('decision'), key: z.string(), ...DecisionSchema.shape, ...Call }),
  // `stopped`: why a run that did not end its steps stopped (a signal: a run its journal, store or
  // lease stopped writes no finish), as its live report words them; a journal without it (a killed
  // run) words them "not started".
  z.object({ t: z.literal('finish'), at: z.number(), outcome: RunOutcomeSchema, stopped: StepErrorSchema.optional() }),
  // A rollout halted at a wave (nothing undone), and the operator's word to go on past it on a resume.
  z.object({ t: z.literal('halt'), at: z.number(), wave: z.int(), reason: z.string() }),
  z.object({ t: z.literal('continue'), at: z.number(), by: z.string(), wave: z.int() }),
  z.object({ t: z.literal('rollout'), at: z.number(), result: RolloutResultSchema }),
  // A run parked (runner/park.ts): what waits for what, since when, with the evidence; and an
  // operator's decision about it (enginectl decide), appended to the stored journal by that command.
  z.object({ t: z.literal('park'), at: z.number(), park: ParkSchema }),
  z.object({ t: z.literal('decide'), ...OperatorDecisionSchema.shape }),
  // The fleet lease the run holds (lease:, --lease), before its first call: this run as the lease
  // names it, how long it queued, a takeover's evidence and the operator's reason (masked). Every
  // report's lease is this record of the last run: a report rebuilt from the journal says what the run did.
  z.object({ t: z.literal('lease'), at: z.number(), lease: LeaseSchema }),
  // A write started by an override of its window (--override-freeze): who, why, the rule met, what it overrode; before the write.
  z.object({
    t: z.literal('override'),
    key: z.string(),
    at: z.number(),
    by: z.string(),
    reason: z.string(),
    as: z.string().optional(),
    why: z.string(),
  }),
]);
export type JournalRecord = z.infer<typeof JournalRecordSchema>;
export type RunRecord = z.infer<typeof RunRecord>;
