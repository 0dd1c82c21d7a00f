// Longer than 250 lines: the report schema, every field described, is one versioned contract, read whole.
// The report model: the run as every rendering sees it, versioned and stable
// (docs/report-format.md, schema/report.schema.json). Built once from the runner's result.
import { describeSelection, type Selection } from '../pipeline/selection.ts';
import { z } from 'zod';
import {
  DecisionSchema,
  RunOutcomeSchema as RunOutcome,
  StepErrorSchema,
  StepInstance,
  WindowVerdictSchema,
} from '../runner/instance.ts';
import {
  countSteps,
  countsPhrase,
  decisionPhrase,
  parkedOf,
  undecidedDoubts,
  type RunResult,
  type StepRun,
} from '../runner/result.ts';
import { HaltSchema, ParkSchema, RolloutResultSchema, WaveResultSchema, type Park } from '../runner/rollout-result.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import { VERSION } from '../version.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

export const REPORT_VERSION = 1;

/** A schema's optional fields as the report has them: null when absent, described as they are. */
type Nullables<S extends z.core.$ZodShape> = {
  [K in keyof S]: S[K] extends z.ZodOptional<infer T> ? z.ZodNullable<T> : S[K];
};
function nullables<S extends z.core.$ZodShape>(shape: S): Nullables<S> {
  const field = (f: z.core.$ZodType) => {
    if (!(f instanceof z.ZodOptional)) return f;
    const nullable = (f.unwrap() as z.ZodType).nullable();
    return f.description === undefined ? nullable : nullable.describe(f.description);
  };
  return Object.fromEntries(Object.entries(shape).map(([k, f]) => [k, field(f)])) as Nullables<S>;
}

/** A value's optional fields, in the order of `keys`, null when absent: the report's form of what the schema gave. */
type Nulled<T> = { [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K] };
function nulled<T extends object>(value: T, shape: z.core.$ZodShape): Nulled<T> {
  const v = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(shape).map((k) => [k, v[k] ?? null])) as Nulled<T>;
}

const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

/**
 * A time a report holds (ISO 8601): one read back from a job's report (report --merge) that is not
 * a time is refused with its field named, not met later as an internal error of the merge.
 */
const IsoTime = z.string().refine((text) => !Number.isNaN(Date.parse(text)), { message: 'not an ISO 8601 time' });

/**
 * A step instance (runner/instance.ts) as every report has it: all its fields but the key, each
 * absent one null and each time ISO 8601.
 */
export const ReportStep = z.object({
  ...nullables(StepInstance.omit({ key: true }).shape),
  startedAt: IsoTime.nullable().describe('ISO 8601; null when the step did not start'),
  error: z
    .object({ ...nullables(StepErrorSchema.shape), code: z.string().describe('an error code (docs/error-codes.md)') })
    .nullable()
    .describe('why it failed or was cancelled; null when it did not'),
  decision: z
    .object({ ...nullables(DecisionSchema.shape), at: z.string().describe('ISO 8601') })
    .nullable()
    .describe(
      "the decision about the in-doubt call: the operator's (--in-doubt, decide), or the pipeline's retry: { in-doubt: retry } policy (by: the pipeline); a decision, never a success",
    ),
  resume: z
    .enum(['earlier-run', 'resumed'])
    .nullable()
    .describe(
      "on a resumed run: done in an earlier run (nothing sent by this one), or run again now; in a sharded run's worker's report, each step that ran of a site an earlier attempt of its index ended (shard.endedEarlier): earlier-run; null otherwise",
    ),
  earlierRunAt: z.string().nullable().describe('ISO 8601: when the earlier run it was done in started'),
  // Reports written before rollouts have neither.
  wave: z.int().nullable().default(null).describe('in a rollout: the wave it belongs to, from 1'),
  round: z.int().nullable().default(null).describe('an analysis gate run between waves: its round, from 1'),
  // Reports written before windows have none.
  window: WindowVerdictSchema.nullable()
    .default(null)
    .describe("a write's admission into its window (windows:, freezes:); null without them"),
});
export type ReportStep = z.infer<typeof ReportStep>;

const Counts = z
  .object({
    total: z.int().describe('step runs'),
    success: z.int().describe('that succeeded'),
    failure: z.int().describe('that failed'),
    skipped: z.int().describe('that were skipped'),
    cancelled: z.int().describe('that were cancelled or not started'),
    inDoubt: z.int().describe('whose call may have been applied'),
    treatedAsApplied: z
      .int()
      .describe("in doubt, treated as applied: the operator's --in-doubt skip, or verify read it applied"),
  })
  .describe('step runs by outcome');
const MatrixValue = z.union([z.string(), z.number(), z.boolean()]);

/** The fleet lease a run held in the run store. */
const HeldLease = z.object({
  name: z.string().describe('the lease (lease: name, or --lease)'),
  holder: z.string().describe('this run as the lease names it: run id, actor, host, CI run URL'),
  waitedMs: z.number().describe('how long the run queued for it'),
  takeover: z
    .object({
      evidence: z.array(z.string()).describe("what verify read of the expired holder's calls in doubt"),
      reason: z
        .string()
        .nullable()
        .describe("the operator's --take-over --reason, with who; null when verify settled every call"),
    })
    .nullable()
    .describe('the lease was taken over from an expired holder; null when it was free'),
});

/** The journal a resumed run resumed. */
const ResumedFrom = z.object({
  journal: z.string().describe('the journal resumed'),
  name: z.string().describe('the name of the pipeline that wrote it'),
  file: z.string().describe('its file, as that run was given it'),
  samePipeline: z
    .boolean()
    .describe(
      'false: another pipeline wrote it (resumed with --force); its instances done are carried as that run left them',
    ),
});

export const Report = z.object({
  reportVersion: z.literal(REPORT_VERSION).describe('the version of this format'),
  tool: z
    .object({ name: z.literal('enginectl').describe('enginectl'), version: z.string().describe('its version') })
    .describe('what wrote the report'),
  pipeline: z
    .object({
      name: z.string().describe("the pipeline's name, resolved"),
      file: z.string().describe('the pipeline file as given'),
      sha256: z
        .string()
        .nullable()
        .describe(
          '"sha256:<hex>" of the pipeline file, its includes and the --var values: the reports of one pipeline share it; null for a single-step action',
        ),
    })
    .describe('the pipeline run'),
  outcome: z
    .enum([...RunOutcome.options, 'under-way'])
    .describe(
      'success, failure or cancelled; under-way: report --merge --store read a sharded run whose workers still ran (merged.underWay says what), not its result',
    ),
  startedAt: IsoTime.describe('ISO 8601'),
  durationMs: z.number().describe('how long it ran'),
  counts: Counts,
  selection: z
    .object({
      only: z.record(z.string(), z.array(z.string())).describe('--only: per key, the values kept (any of them)'),
      skip: z.record(z.string(), z.array(z.string())).describe('--skip: per key, the values left out'),
    })
    .nullable()
    .describe(
      'the matrix instances the run was limited to (--only: any of the values per key; --skip: none of them); null: every instance',
    ),
  matrix: z
    .record(z.string(), z.array(MatrixValue))
    .describe(
      "every value of each matrix key of the pipeline, the whole fleet's instances ({} when no step has a matrix)",
    ),
  merged: z
    .object({
      reports: z
        .array(
          z.object({
            source: z.string().describe('the file it was read from, as given'),
            limitedTo: z.string().nullable().describe('the instances its run was limited to, in words ("site=emea")'),
            outcome: z
              .enum([...RunOutcome.options, 'under-way'])
              .describe("the job's outcome; under-way: a sharded run's site still running when the report was read"),
            startedAt: IsoTime.describe('ISO 8601'),
            durationMs: z.number().describe('how long the job ran'),
            counts: Counts,
            underWay: z
              .object({
                shard: z.int().describe('the shard whose worker holds it, from 1'),
                of: z.int().describe('how many shards the run was planned with'),
                until: z.string().describe("when that worker's lease runs out unless renewed (ISO 8601)"),
              })
              .nullable()
              .default(null)
              .describe("a sharded run's site still under way when the report was read: who holds it; null otherwise"),
            parked: z
              .string()
              .nullable()
              .default(null)
              .describe(
                "the job's run parked (exit 75): what it waits for, in words; null when it did not (a sharded run's worker: see rollout)",
              ),
            lease: HeldLease.nullable()
              .default(null)
              .describe(
                "the fleet lease the job's run held: a takeover's evidence and the operator's reason; null without one",
              ),
            resumedFrom: ResumedFrom.nullable()
              .default(null)
              .describe("the journal the job's run resumed; null when it resumed none"),
            endedEarlier: z
              .boolean()
              .default(false)
              .describe(
                "a sharded run's worker's report: the site an earlier attempt of its index ended, its row and steps as that attempt recorded them (read from the store), not run by this worker; false otherwise",
              ),
          }),
        )
        .describe("one entry per job's report"),
      noReport: z
        .array(z.string())
        .describe('instances of the fleet (KEY=VALUE) that no report covers: their job died or never ran'),
      underWay: z
        .object({
          at: z.string().describe('when the report was read from the store (ISO 8601)'),
          wave: z.int().describe('the wave the rollout stood at'),
          sites: z
            .array(z.string())
            .describe('the sites running: their worker held its lease (not one waiting for its window)'),
          notStarted: z.array(z.string()).describe('the sites no worker had started yet'),
          waitingFor: z
            .string()
            .nullable()
            .default(null)
            .describe(
              "every site of the wave ended, or each one not ended waits for its window: what the workers still alive wait for ('the analysis after wave 1 and its verdict'); null while a site of it runs",
            ),
        })
        .nullable()
        .default(null)
        .describe(
          "report --merge --store of a sharded run whose workers still ran: what was under way; the report is not the run's result (exit 1) until they ended. null otherwise",
        ),
    })
    .nullable()
    .describe('report --merge: the reports of the jobs it merged, and what none of them covers; null for one run'),
  shard: z
    .object({
      run: z.string().describe('the sharded run (enginectl shard printed its id)'),
      index: z.int().describe('this worker, 1-based'),
      of: z.int().describe('how many shards the run was planned with'),
      over: z.string().describe("the rollout's key: what a site is"),
      end: z
        .enum(['done', 'halted', 'parked', 'lost', 'cancelled'])
        .describe(
          'done: no site left to start; halted: a wave failed its budget or analysis; parked: it waits at a barrier (exit 75); lost: it lost its lease, lapsed or released by an operator (exit 69); cancelled: interrupted',
        ),
      sites: z.array(z.string()).describe('the sites it ran or resumed, in order'),
      left: z
        .array(z.string())
        .describe(
          "sites it started and did not end (its lease lapsed, or it was interrupted): a later attempt resumes them, and report --merge keeps that attempt's instances",
        ),
      endedEarlier: z
        .array(z.string())
        .default([])
        .describe(
          "sites an earlier attempt of its index ended (a retried job's), not run by this one: their steps are in this report as that attempt recorded them, read from the store (each that ran marked resume: earlier-run), so report --merge of the files of a job's last attempts names them; a report of another attempt that ran them is kept before this one's. [] in the report of an earlier version",
        ),
      attempt: z
        .int()
        .positive()
        .default(1)
        .describe(
          "which attempt of its index this worker was, from 1: report --merge of files without an earlier attempt's does not say a site of a halted wave no file holds was not started (that attempt may have run it)",
        ),
      assign: z
        .enum(['static', 'queue'])
        .nullable()
        .default(null)
        .describe(
          "how the run's sites are assigned (enginectl shard --assign): static, each site to the shard its name hashes to, so report --merge of files without a shard's tells the sites only that shard may have run; queue, any worker may claim any site. null in the report of an earlier version: read as queue",
        ),
    })
    .nullable()
    .default(null)
    .describe('a worker of a sharded run (run --shard I/N): which one, how it ended, its sites; null otherwise'),
  rollout: z
    .object({
      ...nullables(RolloutResultSchema.shape),
      halted: z
        .object({
          ...HaltSchema.shape,
          // null in the report of an earlier version, which said an abort in `reason` alone.
          aborted: HaltSchema.shape.aborted
            .unwrap()
            .nullable()
            .default(null)
            .describe(`${HaltSchema.shape.aborted.description!}, and in the report of an earlier version`),
        })
        .nullable()
        .describe(RolloutResultSchema.shape.halted.description!),
      waves: z.array(z.object(nullables(WaveResultSchema.shape))).describe('the waves, in order'),
    })
    .nullable()
    .default(null)
    .describe('a rollout in waves: each wave and what became of it; null without rollout:'),
  decisions: z
    .array(
      z.object({
        decision: z
          .enum(['continue-rollout', 'retry', 'skip', 'exclude', 'continue', 'abort'])
          .describe(
            'continue-rollout: go on past the wave the rollout halted at; the others: enginectl decide on a parked run',
          ),
        wave: z.int().describe('the wave it halted or parked at'),
        value: z.string().nullable().default(null).describe('the value of the key it is about; null for the wave'),
        by: z.string().describe('who decided'),
        at: z.string().describe('ISO 8601'),
        reason: z.string().nullable().default(null).describe('why, as the operator said'),
        evidence: z.array(z.string()).default([]).describe('what it was decided on'),
        after: z
          .string()
          .nullable()
          .default(null)
          .describe("decide --after: in effect from then on the run's clock (ISO 8601); null otherwise"),
      }),
    )
    .default([])
    .describe("the operator's decisions about the run itself (an in-doubt call's decision is its step's)"),
  parked: ParkSchema.extend({
    since: z.string().describe("when it began waiting, on the run's clock (ISO 8601)"),
    until: z
      .string()
      .nullable()
      .describe(
        "a bake: when it ends; a window: when the write fits next; on the run's clock (ISO 8601); null otherwise",
      ),
    write: z
      .string()
      .nullable()
      .default(null)
      .describe(
        "a window's park of one run: the key of the write instance it waits for (its step's `key`); null otherwise",
      ),
  })
    .nullable()
    .default(null)
    .describe(
      'the run parked (saved in the run store, exit 75): what it waits for, since when, with the evidence; null when it did not',
    ),
  lease: HeldLease.nullable().default(null).describe('the fleet lease the run held in the run store; null without one'),
  resumedFrom: ResumedFrom.nullable()
    .default(null)
    .describe('a resumed run: the journal it resumed; null for a run that resumed none'),
  steps: z.array(ReportStep).describe('one entry per step instance, in file order'),
});
export type Report = z.infer<typeof Report>;

export function buildReport(result: RunResult): Report {
  const park = parkedOf(result);
  return {
    reportVersion: REPORT_VERSION,
    tool: { name: 'enginectl', version: VERSION },
    pipeline: { name: result.name, file: result.file, sha256: result.pipelineSha256 ?? null },
    outcome: result.outcome,
    startedAt: new Date(result.startedAt).toISOString(),
    durationMs: result.durationMs,
    counts: countSteps(result.steps),
    selection: result.selection && describeSelection(result.selection) ? copyOf(result.selection) : null,
    matrix: result.matrix ?? {},
    merged: null,
    shard: null,
    rollout: result.rollout
      ? {
          over: result.rollout.over,
          waves: result.rollout.waves.map((w) => ({ ...w, analysis: w.analysis ?? null })),
          halted: result.rollout.halted
            ? { ...result.rollout.halted, aborted: result.rollout.halted.aborted ?? null }
            : null,
          stopped: result.rollout.stopped ?? null,
          parked: result.rollout.parked ?? null,
        }
      : null,
    decisions: [
      ...(result.continued
        ? [
            {
              decision: 'continue-rollout' as const,
              wave: result.continued.wave,
              value: null,
              by: result.continued.by,
              at: new Date(result.continued.at).toISOString(),
              reason: null,
              evidence: [],
              after: null,
            },
          ]
        : []),
      ...(result.decided ?? []).map((d) => ({
        ...d,
        at: new Date(d.at).toISOString(),
        after: d.after === undefined ? null : new Date(d.after).toISOString(),
      })),
    ],
    parked: park ? reportParked(park) : null,
    resumedFrom: result.resumedFrom ?? null,
    lease: result.lease ?? null,
    steps: result.steps.map(reportStep),
  };
}

/** A step instance as the report has it. */
export function reportStep(s: StepRun): ReportStep {
  return {
    ...nulled(s, ReportStep.shape),
    startedAt: iso(s.startedAt),
    error: s.error ? nulled(s.error, StepErrorSchema.shape) : null,
    decision: s.decision ? { ...nulled(s.decision, DecisionSchema.shape), at: iso(s.decision.at)! } : null,
    earlierRunAt: iso(s.earlierRunAt),
  };
}

/**
 * What a step's status shows: its outcome, or "in doubt" for an instance stopped (killed,
 * interrupted) after its call left. A failure whose call got no answer (a timeout, a reset)
 * stays a failure, noted in doubt. A sharded run's step not ended when its report was read while
 * the run was under way is "under way".
 */
export function statusOf(
  step: Pick<ReportStep, 'outcome' | 'inDoubt' | 'decision' | 'error'>,
): ReportStep['outcome'] | 'in doubt' | 'under way' {
  if (underWay(step)) return 'under way';
  return step.inDoubt &&
    (step.outcome === 'cancelled' || (step.decision?.decision === 'skip' && !step.decision.pending))
    ? 'in doubt'
    : step.outcome;
}

/** What a step's note says of its in-doubt call and the operator's decision, or '' (`ways`: how the surface names the ways on). */
export function doubtNote(
  step: Pick<ReportStep, 'inDoubt' | 'decision' | 'attempts'>,
  ways: WaysOn = CLI_WAYS,
): string {
  // No attempt made: a decision to send again not acted on yet (its window did not admit it).
  const sent = step.attempts !== 0;
  if (!step.inDoubt) return step.decision ? decisionPhrase(step.decision, sent, ways) : '';
  return step.decision ? `in doubt: ${decisionPhrase(step.decision, sent, ways)}` : 'in doubt';
}

/** A park as the report tells it: its times ISO 8601 on the run's clock. */
export function reportParked(park: Park): NonNullable<Report['parked']> {
  return {
    ...park,
    since: new Date(park.since).toISOString(),
    until: park.until === undefined ? null : new Date(park.until).toISOString(),
    write: park.write ?? null,
  };
}

/** How a parked run goes on: a sharded run's workers run again, one process's run continued (once decided, or once its bake or window comes). */
function goOn(parked: NonNullable<Report['parked']>, sharded: boolean, ways: WaysOn): string {
  if (parked.for === 'barrier')
    return 'a worker that parked goes on when its command is run again (one still waiting, by itself)';
  if (parked.for === 'bake' && sharded) return `run the workers again at or after ${parked.until ?? 'its end'}`;
  if (parked.for === 'window' && sharded)
    return `run the workers that parked again (the same commands) at or after ${parked.until ?? 'its opening'}`;
  if (parked.for === 'decision') return `go on with ${ways.goOnParked} once decided (enginectl decide)`;
  return `go on with ${ways.goOnParked} at or after ${parked.until ?? 'its end'}`;
}

/** What a run-level note is about: a JUnit `<property>` is named by it. */
export type RunNoteKind =
  'parked' | 'under way' | 'ended earlier' | 'decision' | 'lease' | 'lease takeover' | 'resumed from';

/** The run-level lines every rendering shows, in words (the ways on in those of the surface in use). */
export function runNotes(report: RunNoteSource, ways: WaysOn = CLI_WAYS): string[] {
  return namedRunNotes(report, ways).map((n) => n.text);
}

type RunNoteSource = Pick<Report, 'decisions' | 'resumedFrom' | 'lease'> &
  Partial<Pick<Report, 'parked' | 'shard' | 'merged' | 'rollout'>>;

/**
 * A sharded run's report: a worker's, or the workers' merged (their rollout is the run's). A fleet's
 * jobs merged (report --merge FILE...) have no rollout of their own: each parked job goes on with
 * its own run --continue.
 */
const sharded = (report: RunNoteSource) => Boolean(report.shard ?? (report.merged && report.rollout));

/**
 * Each wait of a park with its evidence; a barrier's, each site not ended (thousands, in a fleet),
 * only as its reason tells them: five named and counted, each in the JSON report's parked.waits.
 */
const waitsText = (parked: NonNullable<Report['parked']>): string =>
  parked.for === 'barrier' || parked.waits.length === 0
    ? ''
    : `: ${parked.waits.map((w) => `${w.what}: ${w.evidence.join('; ')}`).join(' | ')}`;

/**
 * The run-level notes, each with what it is about: why the run parked or is under way, the
 * operator's decisions about it, the lease it held, and the journal a resume read.
 */
export function namedRunNotes(report: RunNoteSource, ways: WaysOn = CLI_WAYS): { kind: RunNoteKind; text: string }[] {
  const notes: { kind: RunNoteKind; text: string }[] = [];
  const note = (kind: RunNoteKind, text: string) => notes.push({ kind, text });
  if (report.parked)
    note(
      'parked',
      `parked: waiting for ${report.parked.reason} (since ${report.parked.since})${waitsText(report.parked)}; ${goOn(report.parked, sharded(report), ways)}`,
    );
  const underWay = report.merged?.underWay;
  if (underWay)
    note(
      'under way',
      `under way when read (${underWay.at}), at wave ${underWay.wave}: ${underWay.waitingFor ? `waiting for ${underWay.waitingFor}` : underWay.sites.length ? `${underWay.sites.length} site(s) running` : 'none running'}, ${underWay.notStarted.length} not started yet; this report is not the run's result: read it again once its workers ended`,
    );
  const earlier = report.shard?.endedEarlier ?? [];
  if (report.shard && earlier.length)
    note(
      'ended earlier',
      `Ended by an earlier attempt of shard ${report.shard.index}/${report.shard.of} (their steps as that attempt recorded them, read from the store: nothing of them run or sent by this one): ${jobsNamed(earlier, `${report.shard.over}(s)`)}`,
    );
  for (const d of report.decisions)
    note(
      'decision',
      d.decision === 'continue-rollout'
        ? `The rollout went on past wave ${d.wave}, where it had halted, on the operator's decision (${d.by}, ${d.at})`
        : `The operator decided ${d.decision}${d.value === null ? ` at wave ${d.wave}` : ` for ${d.value} (wave ${d.wave})`} (${d.by}, ${d.at}${d.after ? `; in effect at ${d.after}` : ''})${d.reason ? `: ${d.reason}` : ''}${d.evidence.length ? `; on the evidence: ${d.evidence.join('; ')}` : ''}`,
    );
  const lease = report.lease;
  if (lease)
    note(
      'lease',
      `Held the lease ${lease.name} as ${lease.holder}${lease.waitedMs >= 1000 ? `, after waiting ${Math.round(lease.waitedMs / 1000)}s` : ''}`,
    );
  jobNotes(note, false, lease ?? null, report.resumedFrom);
  // A fleet's jobs each held the lease as a matter of course: a takeover, or a journal of another
  // pipeline resumed, is said; once for the jobs it is the same for (a sharded run's sites, each run
  // under its worker's lease: one takeover, not one note per site of a fleet of thousands).
  const same = new Map<string, { kind: RunNoteKind; jobs: string[] }>();
  for (const job of report.merged?.reports ?? [])
    jobNotes(
      (kind, text) => {
        const entry = same.get(`${kind}\n${text}`) ?? { kind, jobs: [] };
        entry.jobs.push(job.limitedTo ?? job.source);
        same.set(`${kind}\n${text}`, entry);
      },
      true,
      job.lease,
      job.resumedFrom,
    );
  for (const [key, { kind, jobs }] of same) note(kind, `${jobsNamed(jobs)}: ${key.slice(key.indexOf('\n') + 1)}`);
  return notes;
}

/** The jobs (or sites) a note is about: five named, the rest counted. */
const jobsNamed = (jobs: readonly string[], what = 'job(s)') =>
  `${jobs.slice(0, 5).join(', ')}${jobs.length > 5 ? ` and ${jobs.length - 5} more ${what}` : ''}`;

/** A run's (or a merged fleet's job's, `ofJob`: the lease named, the caller naming the jobs) lease takeover, and a journal of another pipeline it resumed. */
function jobNotes(
  note: (kind: RunNoteKind, text: string) => void,
  ofJob: boolean,
  lease: z.infer<typeof HeldLease> | null,
  from: z.infer<typeof ResumedFrom> | null,
): void {
  if (lease?.takeover)
    note(
      'lease takeover',
      `Took the lease${ofJob ? ` ${lease.name}` : ''} over: ${lease.takeover.evidence.join('; ')}${lease.takeover.reason ? `; accepted by the operator: ${lease.takeover.reason}` : ''}`,
    );
  if (from && !from.samePipeline)
    note(
      'resumed from',
      `Resumed from the journal ${from.journal}, written by another pipeline ("${from.name}", ${from.file}): the instances it had done are carried as that run left them`,
    );
}

/** A duration for a person: "unknown" when the journal cannot tell. */
export function durationText(ms: number | null, format: (ms: number) => string): string {
  return ms === null ? 'unknown' : format(ms);
}

/** The icon of a step's status in the Markdown and HTML reports. */
export const ICONS: Record<string, string> = {
  success: '✅',
  failure: '❌',
  skipped: '⏭️',
  cancelled: '⏹️',
  'in doubt': '⚠️',
  'no report': '⛔',
  'under way': '🔄',
  parked: '⏸️',
};

/** A step of a sharded run's site (or one not started) that was still under way when the report was read. */
export const underWay = (s: Pick<ReportStep, 'error'>) => s.error?.code === 'UNDER_WAY';

/** The counts of a report's step runs in words; a step not ended yet (a run read under way) counted as such, not as cancelled. */
export function countsText(report: Pick<Report, 'counts' | 'steps'>): string {
  return report.steps.some(underWay) ? stepsCounted(report.steps) : countsPhrase(report.counts);
}

/** Some steps counted in words, each not ended yet (a run read under way) as such, not as cancelled. */
export function stepsCounted(steps: readonly ReportStep[]): string {
  const notEnded = steps.filter(underWay).length;
  if (notEnded === 0) return countsPhrase(countSteps(steps));
  const ended = steps.filter((s) => !underWay(s));
  return `${ended.length ? `${countsPhrase(countSteps(ended))}, ` : ''}${notEnded} not ended yet`;
}

/**
 * The run's outcome in words: a parked run's is "parked" (its JSON outcome is what ran, its
 * `parked` what it waits for); "under way" for a sharded run read while its workers ran (not its
 * result); "in doubt" for a success that left a write in doubt no one decided (continue-on-error
 * lets a failure pass, not a doubt: the job exits 1, and its heading never says success).
 */
export const outcomeWord = (
  report: Pick<Report, 'outcome'> & { parked?: Report['parked'] | undefined; steps?: readonly ReportStep[] },
) =>
  report.parked
    ? 'parked'
    : report.outcome === 'under-way'
      ? 'under way'
      : report.outcome === 'success' && report.steps && undecidedDoubts(report.steps).length > 0
        ? 'in doubt'
        : report.outcome;

export const IN_DOUBT_NOTE = 'the request was sent; the server may have applied it';

/** The update result of a step, when its type has one (update/system, update/vfs). */
export function updateReportOf(step: ReportStep): { report: string; success: boolean } | undefined {
  const r = step.result as { report?: unknown; success?: unknown } | null;
  if (!r || typeof r !== 'object' || typeof r.report !== 'string' || !STEP_TYPES.get(step.uses)?.updateReport)
    return undefined;
  return { report: r.report, success: r.success === true };
}

/** A target for the step table: the matrix values, or a literal target input. */
export function targetOf(step: ReportStep): string {
  if (step.matrix) return Object.values(step.matrix).map(String).join(', ');
  const t = step.inputs.target;
  if (typeof t === 'string') return t;
  if (t && typeof t === 'object' && 'database' in t) return String((t as { database: unknown }).database);
  return '';
}

export function reportJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'enginectl run report',
    description: 'The JSON report of `enginectl run --report-json` (docs/report-format.md). Generated from the code.',
    ...(z.toJSONSchema(Report, { target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>),
  };
}

/** What the run was limited to, in words ("site=a or site=b; without site=c"), or undefined. */
export function limitedTo(report: Pick<Report, 'selection'>): string | undefined {
  return report.selection ? describeSelection(report.selection) : undefined;
}

/** The selection as the report keeps it, in the order it was given. */
function copyOf(s: Selection): { only: Record<string, string[]>; skip: Record<string, string[]> } {
  const copy = (r: Readonly<Record<string, readonly string[]>>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, [...v]]));
  return { only: copy(s.only), skip: copy(s.skip) };
}
