// The write-fate model the fault-schedule tests share (test/fuzz/write-fate.test.ts, the CLI with a
// local journal; test/fuzz/fate-paths.test.ts, the run store, the shard worker, the park): the
// writes, the faults the emulator puts on them, and what the server applies and the client can know.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { FaultRule } from '../../src/emulator/index.ts';
import { STEP_TYPES, isReadOnly } from '../../src/steps/registry.ts';
import { STEP_CASES, type StepCase } from '../helpers/step-cases.ts';

/** A write the server applies and answers 2xx, which its step then fails on its own check. */
export type WriteCase = StepCase & { failsOnApplied?: boolean };
export const WRITES: WriteCase[] = [
  ...STEP_CASES.filter((c) => !isReadOnly(STEP_TYPES.get(c.uses)!, parse(c.with) as Record<string, unknown>)),
  {
    uses: 'api/request',
    with: '{ method: POST, path: /api/devops/v1/transaction-log/clear, expect-status: [202] }',
    method: 'POST',
    path: '/api/devops/v1/transaction-log/clear',
    body: 'none',
    failsOnApplied: true,
  },
];

/** What the server does and answers, per fault; `none` answers as the API does. */
export const FAULTS = [
  'none',
  'refused',
  'api-5xx',
  'reset-before',
  'reset-after',
  'gateway-after',
  'mid-body',
  'unreadable-2xx',
] as const;
export type Fault = (typeof FAULTS)[number];
export const RULES: Record<Exclude<Fault, 'none'>, Omit<FaultRule, 'path' | 'method'>> = {
  refused: { status: 409 },
  'api-5xx': { status: 500 },
  'reset-before': { reset: 'before' },
  'reset-after': { reset: 'after' },
  'gateway-after': { gateway: 504 },
  'mid-body': { truncate: true },
  'unreadable-2xx': { invalidJson: true },
};

/** What a run of the write needs of a schedule: its retry policy and the fault at each attempt. */
export interface RunSchedule {
  attempts: number;
  inDoubt: 'stop' | 'retry';
  faults: readonly Fault[];
}

export type Fate = 'applied' | 'refused' | 'unknown';

/** Writes the API answers 204 once applied (the product has no license left). */
const NO_CONTENT_ONCE_APPLIED = new Set(['licensing/remove']);
/** Writes the server refuses once applied: an entity deleted is not found again (404). */
export const ONCE_ONLY = new Set(['classes/delete']);

/** The model of one attempt: whether the server applied it, and its fate as the client can know it. */
export function modelAttempt(c: StepCase, fault: Fault, appliedBefore: boolean): { applied: boolean; fate: Fate } {
  if (appliedBefore && ONCE_ONLY.has(c.uses) && fault !== 'reset-before' && fault !== 'api-5xx')
    return fault === 'none' || fault === 'refused'
      ? { applied: false, fate: 'refused' }
      : { applied: false, fate: 'unknown' };
  switch (fault) {
    case 'none':
      return { applied: true, fate: 'applied' };
    case 'refused':
      return { applied: false, fate: 'refused' };
    case 'api-5xx':
      // A 500 is the API's word only where the API documents one, with its body (a replication
      // sync's result array); the fault's body is a JSON error object: in doubt everywhere.
      return { applied: false, fate: 'unknown' };
    case 'reset-before':
      return { applied: false, fate: 'unknown' };
    case 'reset-after':
    case 'gateway-after':
    case 'mid-body':
      return { applied: true, fate: 'unknown' };
    case 'unreadable-2xx':
      // A step that reads only the status has read all it needs; but a 204 (a license removed
      // again) can carry no body: the one the fault puts on it breaks the exchange.
      return {
        applied: true,
        fate: c.body === 'none' && !(appliedBefore && NO_CONTENT_ONCE_APPLIED.has(c.uses)) ? 'applied' : 'unknown',
      };
  }
}

/** The model of a run: the attempts it sends under its retry policy, what was applied, whether it is in doubt. */
export function modelRun(
  c: WriteCase,
  s: RunSchedule,
): { sent: Fate[]; applied: number; success: boolean; appliedEach: boolean[] } {
  const sent: Fate[] = [];
  const appliedEach: boolean[] = [];
  let applied = 0;
  for (let i = 0; i < s.attempts; i++) {
    // The faults are put on the requests up to the first answered as the API would (check()).
    const fault = s.faults.slice(0, i).includes('none') ? 'none' : s.faults[i]!;
    const a = modelAttempt(c, fault, applied > 0);
    sent.push(a.fate);
    appliedEach.push(a.applied);
    if (a.applied) applied++;
    if (a.fate === 'applied' && !c.failsOnApplied) return { sent, applied, success: true, appliedEach };
    // An attempt the server may have applied, or applied, is followed by another only on the pipeline's word.
    if ((a.fate === 'unknown' || a.fate === 'applied') && s.inDoubt === 'stop') break;
  }
  return { sent, applied, success: false, appliedEach };
}

/**
 * In doubt: some attempt's fate is unknown and none was applied (the join); or the step did not
 * succeed (it failed, or its run was killed) and a write of it was applied.
 */
export const inDoubt = (fates: readonly Fate[], success: boolean) =>
  (fates.includes('unknown') && !fates.includes('applied')) || (!success && fates.includes('applied'));

export const HEAD = `version: 1
name: Fate
targets:
  prod: { server: prod-db.example.com, database: PROD, token: "\${{ secrets.PROD_TOKEN }}" }
steps:
`;
export const ENV = { ENGINE_USERNAME: 'admin', ENGINE_PASSWORD: 'admin', PROD_TOKEN: 'prod-token' };

export type JsonStep = { inDoubt: unknown; decision: { decision: string } | null };
export const stepOf = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { steps: JsonStep[] }).steps[0]!;
