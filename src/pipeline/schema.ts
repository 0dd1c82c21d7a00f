// Longer than 250 lines: the pipeline file's schema, every key described, is one contract read whole.
// The zod schema of a pipeline file (pipeline-format.md section 1); json-schema.ts makes the
// JSON Schema that `enginectl schema` prints from it.
import { z } from 'zod';
import { OBJECT_NAME_KEY } from './matrix-values.ts';
import { parseSize } from '../size.ts';
import { credentialObject, durationString, timerDuration } from '../steps/inputs.ts';
import { formatDuration, MAX_TIMER_MS, parseDuration, TIMER_LIMIT } from '../duration.ts';
import { STEP_NAMES } from '../steps/registry.ts';
import type { Wrap } from '../steps/types.ts';
import { freezes, SCHEDULE_KEYS, windows } from './schedule-schema.ts';

/** A string holding a ${{ }} expression, accepted where the resolved value is checked at run time. */
export const EXPRESSION_TEXT = /\$\{\{[\s\S]*\}\}/;
export const ExprString = z.string().regex(EXPRESSION_TEXT, 'an expression ${{ ... }}');
const isExpression = (v: unknown) => typeof v === 'string' && v.includes('${{');
/** A list holding an expression at any depth is checked once resolved, at run time. */
const holdsExpression = (v: unknown): boolean =>
  isExpression(v) ||
  (Array.isArray(v) && v.some(holdsExpression)) ||
  (!!v && typeof v === 'object' && Object.values(v).some(holdsExpression));

/**
 * How the loader parses a file's parts: with each issue's input (for the messages), and without
 * zod's compiled fast path. zod compiles that path at a schema's first parse; the loader parses
 * the file schema once, and each step type's inputs a few times, so compiling cost more than it
 * saved (validating the demo: 17 -> 9 ms for this stage; 10,000 steps: the same).
 */
export const LOADER_PARSE = { reportInput: true, jitless: true } as const;

/** For the JSON Schema: the input's type, or an expression string. */
export const lenient: Wrap = (schema) => z.union([ExprString, schema]) as unknown as typeof schema;

const listTakers = new WeakMap<z.ZodType, boolean>();

/**
 * Whether an input is a list (a list of files, of licenses): a list holding an expression waits
 * to be checked once resolved. An input of one value (a text, a number) is no list, whatever it
 * holds: such a list is refused now, as the editor's schema refuses it, not by the run once the
 * steps before it wrote.
 */
function takesList(schema: z.ZodType): boolean {
  let takes = listTakers.get(schema);
  if (takes === undefined) {
    const result = schema.safeParse([], LOADER_PARSE);
    takes =
      result.success ||
      !result.error.issues.some(
        (i) => i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_union'),
      );
    listTakers.set(schema, takes);
  }
  return takes;
}

/**
 * A list holding an expression: its items written as values are checked now, each at its own
 * index; an item that is an expression (or a list holding one) waits to be resolved, and so does
 * the list's length.
 */
function checkWritten(schema: z.ZodType, list: unknown[], ctx: z.RefinementCtx): void {
  const kept = list.flatMap((v, i) => (isExpression(v) || (Array.isArray(v) && holdsExpression(v)) ? [] : [i]));
  const result = schema.safeParse(
    kept.map((i) => list[i]),
    LOADER_PARSE,
  );
  if (result.success) return;
  for (const issue of result.error.issues) {
    const [first, ...rest] = issue.path;
    if (typeof first !== 'number') continue;
    ctx.addIssue({ ...issue, path: [kept[first] ?? first, ...rest] } as never);
  }
}

/**
 * For validation: an expression is accepted (it is checked once resolved, at run time); any
 * other value must fit the input's type, and its own issues are reported, not the union's.
 */
export const lenientCheck: Wrap = (schema) =>
  z.unknown().superRefine((value, ctx) => {
    if (isExpression(value)) return;
    if (Array.isArray(value) && holdsExpression(value) && takesList(schema)) return checkWritten(schema, value, ctx);
    const result = schema.safeParse(value, LOADER_PARSE);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue } as never);
  }) as unknown as typeof schema;

export const STEP_ID = /^[a-z][a-z0-9_-]*$/;

/** The shortest timeout of a call: under it, a write is sent and cut before a server can answer, and left in doubt. */
export const MIN_CALL_TIMEOUT_MS = 1_000;
const callTimeout = timerDuration.refine((s) => (parseDuration(s) ?? Infinity) >= MIN_CALL_TIMEOUT_MS, {
  message:
    "a call's timeout is at least 1s: shorter, a write is sent and cut before the server can answer, and left in doubt",
});

const text = z.string();
const boolOrExpr = z.union([z.boolean(), ExprString]);

export const ServerSchema = z.strictObject({
  url: text.describe('base_url of the API'),
  username: text.optional().describe('user name of HTTP Basic authentication'),
  password: text.optional().describe('its password (write ${{ secrets.NAME }})'),
  timeout: callTimeout.optional().describe('per-request limit, at least 1s; default 2h'),
  'max-response-size': z
    .union([
      z.int().min(1),
      z.string().refine((s) => parseSize(s) !== undefined, { message: 'must be a size such as 512MiB, 1GiB or 300MB' }),
    ])
    .optional()
    .describe('the largest answer read from this server; default 256MiB'),
  'ca-file': text.optional().describe('extra CA certificate (PEM) to trust'),
  'insecure-skip-tls-verify': boolOrExpr.optional().describe('do not verify the server certificate: test servers only'),
  'allow-insecure-http': boolOrExpr
    .optional()
    .describe('send the user name and password over plain http:// to a host that is not loopback'),
});

export const TargetSchema = credentialObject(
  z.strictObject({
    server: text.describe('-> targetServer'),
    database: text.describe('-> targetDBName'),
    token: text.optional().describe('-> targetAuthToken; or username and password'),
    username: text.optional().describe('-> targetUserName, with password, instead of a token'),
    password: text.optional().describe('-> targetPassword (write ${{ secrets.NAME }})'),
  }),
);

/** A retry's wait before its second attempt, and what each later wait is the one before times, by default. */
export const RETRY_DELAY_MS = 10_000;
export const RETRY_BACKOFF = 2;

export const RetrySchema = z
  .strictObject({
    attempts: z.int().min(1).max(100).describe('attempts in all, the first included'),
    delay: timerDuration.optional().describe('the wait before the second attempt; default 10s'),
    backoff: z.number().min(1).max(10).optional().describe('each later wait is the one before times this; default 2'),
    'in-doubt': z
      .enum(['stop', 'retry'])
      .optional()
      .describe(
        "after an attempt whose write the server may have applied (no answer, a gateway's 502/503/504, a timeout), or applied while the step failed (answered 2xx: an api/request whose expect-status it missed): stop (default: the step fails in doubt) or retry (send it again: recorded in every report as the pipeline's decision)",
      ),
  })
  .superRefine((retry, ctx) => {
    // Every wait is a timer, the longest the one before the last attempt: delay × backoff^(attempts-2).
    const delayMs = retry.delay === undefined ? RETRY_DELAY_MS : parseDuration(retry.delay);
    const backoff = retry.backoff ?? RETRY_BACKOFF;
    if (delayMs === undefined || delayMs > MAX_TIMER_MS || retry.attempts < 2) return;
    const longest = delayMs * backoff ** (retry.attempts - 2);
    if (longest <= MAX_TIMER_MS) return;
    let fits = 2;
    while (delayMs * backoff ** (fits - 1) <= MAX_TIMER_MS) fits++;
    const product = `${formatDuration(delayMs)} × ${backoff}^${retry.attempts - 2}`;
    // A product past whole seconds a number holds is shown as the product alone.
    const shown = Number.isSafeInteger(Math.round(longest / 1_000))
      ? `${formatDuration(longest)} (${product})`
      : product;
    ctx.addIssue({
      code: 'custom',
      path: ['attempts'],
      input: retry.attempts,
      message: `a wait between attempts is ${TIMER_LIMIT}: the wait before attempt ${retry.attempts} would be ${shown}; give at most ${fits} attempts, a smaller delay or a smaller backoff`,
    });
  });

const matrixValue = z.union([z.string(), z.number(), z.boolean()]);
/** A matrix key's values: a list; in the file also `${{ vars.NAME }}`, resolved at load (matrix-values.ts). */
export const MATRIX_VALUES = z.array(matrixValue).min(1);
/** A matrix key: any name but those every JavaScript object holds (`constructor`, `toString`, …), which would read as the object's own. */
const MATRIX_KEY = z
  .string()
  .regex(
    /^(?!(?:constructor|toString|toLocaleString|valueOf|hasOwnProperty|isPrototypeOf|propertyIsEnumerable|__proto__|__defineGetter__|__defineSetter__|__lookupGetter__|__lookupSetter__)$)/,
    { message: OBJECT_NAME_KEY },
  );

/** What a failure in a rollout does: halt it, or park the run for an operator's decision (with a run store). */
const OnFailureSchema = z.enum(['halt', 'decide']);

/** A step's `if`: a condition's text or a literal (the editor's schema refuses an empty text, as validation does). */
export const STEP_CONDITION = z.union([text, z.boolean()]);

const stepShape = {
  id: z
    .string()
    .regex(STEP_ID, 'must match [a-z][a-z0-9_-]*')
    .optional()
    .describe('names the step for later expressions: steps.ID.outputs.NAME'),
  name: text
    .optional()
    .describe('shown everywhere; may hold expressions (${{ matrix.site }}); derived from uses when absent'),
  uses: z.enum(STEP_NAMES),
  with: z.record(z.string(), z.unknown()).optional(),
  if: STEP_CONDITION.optional().describe('a condition, bare or in ${{ }}; success() when absent'),
  'continue-on-error': z.boolean().optional().describe('a failure does not stop the pipeline; default false'),
  'on-failure': OnFailureSchema.optional().describe(
    "in a rollout: decide parks the run for an operator's decision (with a run store) when this step fails or its call is in doubt; halt does not; default: the rollout's. Refused on a step no rollout splits",
  ),
  timeout: callTimeout.optional().describe('aborts the call in flight: 90s, 30m, 2h; at least 1s'),
  retry: RetrySchema.optional().describe('run the step again when it fails, attempts in all'),
  longest: durationString
    .optional()
    .describe(
      'the longest its write can take at the server (an update: 3h): verify reads "not applied" only once that long has passed since the call, as the API cannot show a write still running',
    ),
  matrix: z
    .record(MATRIX_KEY, MATRIX_VALUES)
    .optional()
    .describe('one instance per combination of the values: { site: [test, prod] } or ${{ vars.sites }}'),
  'max-parallel': z.int().min(1).optional().describe('instances of the matrix at once; default 1'),
  'fail-fast': z.boolean().optional().describe('a failed instance stops those not started; default true'),
  server: text.optional().describe('the server it calls: a name under servers:, or ${{ matrix.site }}'),
  expected: durationString
    .optional()
    .describe(
      "how long its write is expected to take (40m): wins over the p95 of earlier runs' durations when admitting it into a window",
    ),
};

export const StepSchema = z.strictObject(stepShape);

export const DefaultsSchema = z.strictObject({
  server: text.optional().describe('the server of every step that names none'),
  timeout: callTimeout.optional().describe('the timeout of every step that sets none; at least 1s'),
  'continue-on-error': z.boolean().optional().describe('continue-on-error of every step that sets none'),
  retry: RetrySchema.optional().describe('retry of every step that sets none'),
});

/** An inventory file (`include:`): servers, targets and vars shared by pipelines. */
export const InventorySchema = z.strictObject({
  servers: z
    .record(z.string(), ServerSchema)
    .optional()
    .describe('API servers by name, for the pipelines that include this file'),
  targets: z.record(z.string(), TargetSchema).optional().describe('target databases of updates by name'),
  vars: z.record(z.string(), z.unknown()).optional().describe('values the pipelines read as ${{ vars.NAME }}'),
  windows,
  freezes,
});

/** A wave written as a bare value (`waves: [lab, rest]`) is told as such, not as a percentage gone wrong. */
function waveError(issue: { input?: unknown }): string {
  const v = issue.input;
  if (typeof v === 'string' && !v.endsWith('%'))
    return `"${v}" is no wave: write [${v}] for a wave of that value; a wave is a list of values, a count (2), a percentage of all values (10%) or rest`;
  return 'a percentage: 1% to 100%';
}

const share = z.union([z.int().min(1), z.string().regex(/^(100|[1-9]\d?)%$/, { error: waveError })]);

/** The shortest lease: renewed every third of its ttl, at most once a second (a store's write takes time). */
export const MIN_LEASE_TTL_MS = 3_000;

/** A rollout in waves over a matrix key (rollout.ts): ordered waves, a failure budget, analysis between them. */
export const LeaseSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._=-]{0,99}$/, 'letters, digits, dots, dashes, underscores')
    .describe('the lease: every pipeline that names it takes turns (prod-fleet)'),
  ttl: timerDuration
    .refine((s) => (parseDuration(s) ?? Infinity) >= MIN_LEASE_TTL_MS, {
      message: 'at least 3s: the run renews it every third of it, and a renewal must reach the store in time',
    })
    .optional()
    .describe(
      'how long the lease holds without a renewal (the run renews it every third of it); at least 3s, default 10m',
    ),
  wait: timerDuration
    .optional()
    .describe('how long to queue for it (first come, first served); 0s refuses at once (the default)'),
  over: z
    .string()
    .optional()
    .describe(
      'a matrix key (site): one lease per value the run selects (NAME.VALUE), so runs on other sites go on at the same time',
    ),
});

export const RolloutSchema = z.strictObject({
  over: z
    .string()
    .describe(
      "the matrix key the waves split (site): every step whose matrix has it runs per value, a value's steps in order",
    ),
  waves: z
    .array(z.union([z.array(matrixValue).min(1), share, z.literal('rest')]))
    .min(1)
    .describe(
      'in order: a list of values ([test]), a count (2), a percentage of all values (10%), or rest; values no wave names form a last wave',
    ),
  'max-parallel': z.int().min(1).optional().describe('values of a wave at once (default 1)'),
  'max-failures': z
    .union([z.int().min(0), z.string().regex(/^(100|[1-9]?\d)%$/, 'a percentage: 0% to 100%')])
    .optional()
    .describe('failed values a wave may have and go on (a count, or a percentage of the wave); default 0'),
  analysis: z
    .strictObject({
      gates: z
        .array(z.string().regex(STEP_ID, 'a step id'))
        .min(1)
        .optional()
        .describe(
          "ids of read-only steps of the rollout: run again for the wave's values, count times, interval apart",
        ),
      bake: z
        .union([durationString, z.array(durationString).min(1)])
        .optional()
        .describe(
          "the wait after each wave before its analysis (and the next wave), or a list: the bake after wave 1, 2, ... (none after the list's end); with a run store, a bake longer than park-after parks the run",
        ),
      count: z.int().min(1).max(100).optional().describe('rounds (default 3)'),
      interval: timerDuration.optional().describe('between rounds, at least 2m (the monitoring refresh); default 2m'),
      'failure-limit': z.int().min(0).optional().describe('rounds that may fail before the rollout halts (default 0)'),
    })
    .optional()
    .describe(
      'between waves: the gates, run against the values just rolled out; a failed analysis halts the later waves',
    ),
  'on-failure': OnFailureSchema.optional().describe(
    "halt (the default): past a wave's budget the rollout halts; decide: with a run store, a wave with a failed or in-doubt value, or a failed analysis, parks the run for an operator's decision (enginectl decide)",
  ),
});

export const PipelineFileSchema = z.strictObject({
  version: z.literal(1, 'must be 1, the file format version').describe('the file format version: 1'),
  name: text.optional().describe('the pipeline name every report shows; may read vars and env'),
  include: z.array(text).optional().describe('inventory files (servers, targets, vars), relative to this file'),
  vars: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('values the steps read as ${{ vars.NAME }}; --var NAME=VALUE overrides'),
  servers: z
    .record(z.string(), ServerSchema)
    .optional()
    .describe(
      'API servers by name; without it ENGINE_URL, ENGINE_USERNAME and ENGINE_PASSWORD define the server default',
    ),
  targets: z
    .record(z.string(), TargetSchema)
    .optional()
    .describe('target databases of updates by name: server, database, token or username and password'),
  defaults: DefaultsSchema.optional().describe(
    'server, timeout, continue-on-error and retry of every step that sets none',
  ),
  rollout: RolloutSchema.optional().describe('roll the steps of a matrix key out in waves that halt themselves'),
  lease: LeaseSchema.optional().describe(
    'one run at a time for the fleet, across machines and CI systems: a lease in the run store (--store), checked before every write',
  ),
  windows,
  freezes,
  ...SCHEDULE_KEYS,
  'park-after': durationString
    .optional()
    .describe(
      'with a run store: a wait (a bake) longer than this parks the run (saved, exit 75) instead of holding the job; default 10m',
    ),
  park: z
    .strictObject({
      'keep-lease': z
        .boolean()
        .optional()
        .describe('keep the fleet lease while parked (default: released; a continue takes it again)'),
    })
    .optional()
    .describe('what a parked run keeps'),
  'on-failure': OnFailureSchema.optional().describe(
    'the default of rollout.on-failure: halt, or decide (park for an operator decision, with a run store)',
  ),
  steps: z.array(StepSchema).min(1, 'a pipeline needs at least one step').describe('the steps, run in order'),
});
export type PipelineFile = z.infer<typeof PipelineFileSchema>;
