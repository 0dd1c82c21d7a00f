// What became of a rollout's waves, once: the runner's result, the journal's rollout record
// (parsed with it) and, each absent value null, the report's rollout (report/model.ts).
import { z } from 'zod';
import { AbortSchema } from '../shard/abort.ts';

export const WaveOutcomeSchema = z.enum([
  'done',
  'failed-within-budget',
  'halted',
  'not-started',
  'cancelled',
  'parked',
  'under-way',
]);
export type WaveOutcome = z.infer<typeof WaveOutcomeSchema>;
export type WaveAnalysis = z.infer<typeof WaveAnalysisSchema>;

export const WaveAnalysisSchema = z.object({
  passed: z.boolean().describe('whether it held'),
  rounds: z.int().describe('rounds run'),
  failedRounds: z.int().describe('rounds that failed'),
  text: z.string().describe('what it found'),
});

export const WaveResultSchema = z.object({
  wave: z.int().describe('from 1'),
  values: z.array(z.string()).describe('the values of the key it rolled out'),
  outcome: WaveOutcomeSchema.describe('what became of it'),
  /** The values whose steps failed. */
  failed: z.array(z.string()).describe('the values whose steps failed'),
  /** How many values may fail and the rollout go on. */
  budget: z.int().describe('how many values may fail and the rollout go on'),
  /** What the analysis after it found, when one ran. */
  analysis: WaveAnalysisSchema.optional().describe('the analysis after the wave, when one ran'),
});
export type WaveResult = z.infer<typeof WaveResultSchema>;

export const HaltSchema = z.object({
  wave: z.int().describe('the wave it halted at'),
  reason: z.string().describe('why, in words'),
  /** The operator's abort that halted it: its fields, which readers use (`reason` is its words). */
  aborted: AbortSchema.optional().describe(
    "a sharded run halted by the operator's abort (decide --abort): who, when, why; null when a wave's failures or its analysis halted it",
  ),
});

/** One thing a parked rollout waits for: a value's decision (its failure or in-doubt call), or the bake. */
export const WaitSchema = z.object({
  value: z.string().nullable().describe('the value of the key it is about; null for the wave itself (a bake, a halt)'),
  what: z.string().describe('what it waits for, in words'),
  evidence: z.array(z.string()).describe('what the run saw: the error, the call in doubt, the budget left'),
});

export const ParkSchema = z.object({
  wave: z.int().describe('the wave it parked at; 0 for a run without rollout:'),
  for: z
    .enum(['bake', 'decision', 'window', 'barrier'])
    .describe(
      "what it waits for: a bake's time, an operator's decision, the next window a write fits in, or (a sharded run's worker) its wave's barrier: the other workers' sites, the analysis and its verdict",
    ),
  since: z.number().describe("when it began waiting, on the run's clock (epoch ms): a bake's start"),
  until: z
    .number()
    .optional()
    .describe("a bake: when it ends; a window: when the write fits next; on the run's clock (epoch ms)"),
  reason: z.string().describe('what it waits for, in words ("the 12h bake after wave 1")'),
  write: z
    .string()
    .optional()
    .describe(
      "a window's park of one run: the key of the write instance it waits for (a later night for the same write is the same wait); absent otherwise",
    ),
  waits: z.array(WaitSchema).describe('each thing it waits for, with its evidence'),
  clock: z
    .object({
      server: z.string().describe('the server whose answers showed it'),
      low: z.number().describe("the least its clock can be ahead of the run's, in ms (negative: behind)"),
      high: z.number().describe("the most its clock can be ahead of the run's, in ms"),
      at: z.number().describe("when its answer came, on the run's clock (epoch ms)"),
    })
    .optional()
    .describe(
      "a bake: the clock of one of the wave's servers minus the run's, in ms, between low and high, as its answer that came at `at` (the run's clock) showed it (the Date header): what a continue on another machine judges the bake's end on as well as its own clock; absent when no answer had a Date, and in an earlier enginectl's journal",
    ),
});
export type Park = z.infer<typeof ParkSchema>;

export const RolloutResultSchema = z.object({
  over: z.string().describe('the matrix key the waves split'),
  waves: z.array(WaveResultSchema).describe('the waves, in order'),
  /** The wave it halted at, and why; absent when every wave ran. */
  halted: HaltSchema.optional().describe(
    'where the rollout halted, and why; null when every wave ran. Nothing is undone',
  ),
  /** A sharded run read from its store: the wave it stopped in (not every site of it ended, no worker running it). */
  stopped: z
    .int()
    .optional()
    .describe(
      'report --merge --store of a sharded run: the wave it stopped in, not every site of it ended and no worker of the run running; null otherwise',
    ),
  /** Where it parked (saved, to go on in a later job), and what it waits for. */
  parked: ParkSchema.optional().describe(
    'where the rollout parked (saved in the run store, to go on with run --continue), and what it waits for; null when it did not',
  ),
});
export type RolloutResult = z.infer<typeof RolloutResultSchema>;

/** An operator's decision about a parked run (enginectl decide), as the journal keeps it. */
export const OperatorDecisionSchema = z.object({
  decision: z.enum(['retry', 'skip', 'exclude', 'continue', 'abort']).describe('what the operator decided'),
  value: z.string().nullable().describe('the value of the key it is about; null for the wave (continue, abort)'),
  wave: z.int().describe('the wave the run parked at'),
  by: z.string().describe('who decided (the CI identity, at the host)'),
  at: z.number().describe('when (epoch ms)'),
  reason: z.string().nullable().describe('why, as the operator said (--reason)'),
  evidence: z.array(z.string()).describe("what it was decided on: verify's verdict, the bake left, the budget left"),
  /** A decision with a timeout (decide --after 4h --then abort): in effect from then on, on the run's clock. */
  after: z.number().optional().describe("decide --after: in effect from this time on the run's clock (epoch ms)"),
});
export type OperatorDecision = z.infer<typeof OperatorDecisionSchema>;

/** Why a value's instances did not start: the rollout halted at an earlier wave (the report's words, one process's and a sharded run's). */
export const haltedEarlier = (wave: number) => `not started: the rollout halted at wave ${wave}`;

/** Why a value's instances did not start: its own wave was past its failure budget. */
export const pastBudget = (wave: number, failed: number, over: string, budget: number) =>
  `not started: wave ${wave} had ${failed} failed ${over}(s), over its budget of ${budget}`;

/** Why a value's instances did not start: the rollout parked at a wave, waiting for `reason`. */
export const parkedAt = (wave: number, reason: string) =>
  `not started: the rollout parked at wave ${wave} (waiting for ${reason})`;
