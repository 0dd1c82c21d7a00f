// The write-fate model the fault-schedule tests share (test/fuzz/write-fate.test.ts, the CLI with a
// local journal; test/fuzz/fate-paths.test.ts, the run store and the shard worker;
// test/fuzz/fate-park.test.ts, a parked run's continue and decide; test/fuzz/fate-action.test.ts,
// the GitHub Action's entry; test/fuzz/fate-longest.test.ts, verify before and after a step's
// `longest:`; test/fuzz/fate-outside.test.ts, verify after someone else changed the target): the
// writes, the faults the emulator puts on them, what the server applies and the client can know,
// and the schedules fast-check draws.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { sealLicenses } from '../../src/emulator/license-code.ts';
import { encodeLine } from '../../src/journal/frame.ts';
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

/** A schedule: a write, its attempts, a fault at each, its retry policy, a kill at its last call, and a follow-up. */
export interface Schedule<F> {
  step: number;
  attempts: number;
  inDoubt: 'stop' | 'retry';
  faults: Fault[];
  /** The run killed right after the last write left (its journal cut after that send record). */
  killed: boolean;
  followUp: F;
}

export const arbitrary = <F extends string>(followUps: readonly F[]) =>
  fc.record({
    step: fc.nat({ max: WRITES.length - 1 }),
    attempts: fc.integer({ min: 1, max: 3 }),
    inDoubt: fc.constantFrom('stop' as const, 'retry' as const),
    faults: fc.array(fc.constantFrom(...FAULTS), { minLength: 3, maxLength: 3 }),
    killed: fc.boolean(),
    followUp: fc.constantFrom(...followUps),
  });

/** What the model says after the run: the fates the journal holds (a kill loses the last answer), done, in doubt. */
export function afterRun(
  c: WriteCase,
  s: Schedule<unknown>,
  /** What the server applied, when not all the model sends reached it (a kill before the last one did). */
  applied = modelRun(c, s).applied,
) {
  const model = modelRun(c, s);
  const fates: Fate[] = s.killed ? [...model.sent.slice(0, -1), 'unknown'] : model.sent;
  const done = !s.killed && model.success;
  const doubt = inDoubt(fates, done);
  const once = ONCE_ONLY.has(c.uses) && applied > 0;
  const perRun = c.failsOnApplied && s.inDoubt === 'retry' ? s.attempts : 1;
  /** What a follow-up may send: nothing while in doubt but on a decision to send again; once when known not applied; nothing when done. */
  const resent = (decided: boolean) => (once ? 0 : doubt ? (decided ? perRun : 0) : done ? 0 : perRun);
  return { model, fates, doubt, done, once, perRun, resent };
}

/** The journal a kill right after the last send record would leave (a copy beside it). */
export function cutAfterLastSend(journal: string): string {
  const records = readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const at = records.findLastIndex((r) => r.t === 'send');
  const to = `${journal}.killed.jsonl`;
  writeFileSync(
    to,
    records
      .slice(0, at + 1)
      .map(({ crc: _crc, ...r }) => encodeLine(r))
      .join(''),
  );
  return to;
}

/** Puts the schedule's faults on the write's requests, one rule a request in order, up to the first the API answers as it would. */
export function faultRules(c: WriteCase, s: RunSchedule, site?: string): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const fault of s.faults.slice(0, s.attempts)) {
    if (fault === 'none') break;
    rules.push({ method: c.method, path: c.path, times: 1, ...(site ? { site } : {}), ...RULES[fault] });
  }
  return rules;
}

/** The journal's records in the store, each segment's lines in order. */
function segmentsOf(store: string, run: string): { seg: string; lines: string[] }[] {
  const dir = join(store, 'runs', run, 'journal');
  return readdirSync(dir)
    .sort()
    .map((seg) => ({ seg, lines: readFileSync(join(dir, seg), 'utf8').split('\n').filter(Boolean) }));
}

/** What a kill right after the last send record leaves in the store: the segments up to that record. */
export function cutStoreAfterLastSend(store: string, run: string): void {
  const segments = segmentsOf(store, run);
  const at = segments.findLastIndex((s) => s.lines.some((l) => (JSON.parse(l) as { t: string }).t === 'send'));
  const dir = join(store, 'runs', run, 'journal');
  for (const s of segments.slice(at + 1)) rmSync(join(dir, s.seg));
  const last = segments[at]!;
  const upTo = last.lines.findLastIndex((l) => (JSON.parse(l) as { t: string }).t === 'send');
  writeFileSync(join(dir, last.seg), last.lines.slice(0, upTo + 1).join('\n') + '\n');
}

/** The runner is gone with its disk: its own copy of the journal too. */
export function loseRunnerDisk(run: string): void {
  for (const f of readdirSync(tmpdir()))
    if (f.startsWith(`enginectl-${run}`)) rmSync(join(tmpdir(), f), { recursive: true, force: true });
}

/** The step types whose effect the API shows, which verify reads back. */
export const VERIFIABLE = new Set([...STEP_TYPES.values()].filter((t) => t.verify).map((t) => t.uses));

/**
 * Those verify proves not applied past `longest:` when the server never applied them. Not a
 * licensing write: a license has no id, version or creation time, so the one still there reads as
 * one removed and added again since, and the licenses of before as the code's added and removed
 * since (verify cannot tell).
 */
export const PROVED_NOT_APPLIED = new Set(
  [...VERIFIABLE].filter((uses) => uses !== 'licensing/remove' && uses !== 'licensing/add'),
);

// licensing/add with a code of a license the server lacks (CRM): the model's code adds none, so
// the licenses read the same whether or not it was sent; this one adds one.
const CRM = sealLicenses({
  licenseVersion: 1,
  licenses: [
    {
      productName: 'CRM',
      productKey: 3,
      type: 'connection',
      quantity: 5,
      extensions: [],
      licenseeName: 'ACME Corp',
      licenseeId: 'ACME-001',
      licenserKey: 7001,
      expiration: '2027-12-31',
    },
  ],
});

/**
 * The schedule's write, as a path where verify may tell runs it: licensing/add adding a license;
 * update/system naming its source database (without one, verify cannot prove the update not
 * applied: the database the API runs on is not named).
 */
export const writeOf = (s: Schedule<unknown>): WriteCase => {
  const c = WRITES[s.step % WRITES.length]!;
  if (c.uses === 'licensing/add') return { ...c, with: `{ code: "${CRM}" }` };
  if (c.uses === 'update/system')
    return {
      ...c,
      with: '{ target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }',
    };
  return c;
};

/**
 * Each verdict verify printed: `enginectl verify`'s lines (`VERDICT "NAME" (CALL): ...`), a resume's
 * (`verify: "NAME": VERDICT: ...`) and its refusal's (`"NAME" (CALL): VERDICT: ...`).
 */
export const verdictsIn = (said: string) =>
  [
    ...said.matchAll(
      /^(applied|not-applied|cannot-tell) +"|"[^"\n]*"(?: \([A-Z]+ [^)\s]*\))?: (applied|not-applied|cannot-tell): /gm,
    ),
  ].map((m) => (m[1] ?? m[2])!);
