// What became of a rollout's waves, once: the runner's result, the journal's rollout record
// (parsed with it) and, each absent value null, the report's rollout (report/model.ts).
import { z } from 'zod';

export const WaveOutcomeSchema = z.enum(['done', 'failed-within-budget', 'halted', 'not-started', 'cancelled']);
export type WaveOutcome = z.infer<typeof WaveOutcomeSchema>;

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
  reason: z.string().describe('why'),
});

export const RolloutResultSchema = z.object({
  over: z.string().describe('the matrix key the waves split'),
  waves: z.array(WaveResultSchema).describe('the waves, in order'),
  /** The wave it halted at, and why; absent when every wave ran. */
  halted: HaltSchema.optional().describe(
    'where the rollout halted, and why; null when every wave ran. Nothing is undone',
  ),
});
export type RolloutResult = z.infer<typeof RolloutResultSchema>;
