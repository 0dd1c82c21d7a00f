// The run's records masked through their model: the masker walks their DATA, never their envelope.
// The model's own keys (a run's, an instance's, a rollout's: name, outcome, steps, inputs, ...) are
// the program's words, and its enumerated fields (an outcome, a verdict, an error code, a step
// type, a number) typed values: neither is ever masked, so a secret whose value is `success`,
// `steps` or `name` leaves every report whole. What comes from outside is masked as before: each
// text field as text (a name made from an expression, a message, a path), and each record of
// outside values whole, keys too (inputs, outputs, answers, matrix values: a server's answer may
// have a secret as a key). The plans are made once from the schemas (instance.ts,
// rollout-result.ts): a field added there is masked as what it is. A key no plan names is masked
// as data. Copied on write, as Masker.maskValue: a record in which nothing changes is returned as is.
import type { z } from 'zod';
import type { PlannedCall } from '../api/index.ts';
import type { Masker } from './masker.ts';
import { StepInstance, WindowVerdictSchema } from './instance.ts';
import type { RunResult, StepRun } from './result.ts';
import {
  OperatorDecisionSchema,
  ParkSchema,
  RolloutResultSchema,
  type Park,
  type RolloutResult,
} from './rollout-result.ts';

/** How a value is masked: kept (typed), as text, as data (every string and key), or field by field, item by item. */
type Plan = 'keep' | 'text' | 'data' | Fields | Items;
interface Fields {
  readonly fields: Readonly<Record<string, Plan>>;
}
interface Items {
  readonly items: Plan;
}

/** A schema's plan: its strings text, its enums, literals, numbers, booleans and error codes kept, its records and unknowns data. */
function planOf(schema: z.core.$ZodType): Plan {
  const def = schema._zod.def as z.core.$ZodTypeDef & {
    innerType?: z.core.$ZodType;
    shape?: Record<string, z.core.$ZodType>;
    element?: z.core.$ZodType;
  };
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return planOf(def.innerType!);
    case 'object':
      return fields(Object.fromEntries(Object.entries(def.shape!).map(([k, f]) => [k, planOf(f)])));
    case 'array':
      return { items: planOf(def.element!) };
    case 'string':
      return 'text';
    case 'enum':
    case 'literal':
    case 'number':
    case 'boolean':
    case 'custom': // the error code (instance.ts StepErrorSchema): the program's
      return 'keep';
    default:
      return 'data'; // a record, an unknown, a union of scalars: values from outside, walked whole
  }
}

const fields = (shape: Record<string, Plan>): Fields => ({ fields: shape });
const extend = (plan: Plan, shape: Record<string, Plan>): Fields => fields({ ...(plan as Fields).fields, ...shape });

/** An instance: its step type (`uses`) is a name of the step registry, kept as its outcome is. */
const INSTANCE = extend(planOf(StepInstance), { uses: 'keep' });
const ROLLOUT = planOf(RolloutResultSchema);
const PARK = planOf(ParkSchema);
const OVERRIDE = (planOf(WindowVerdictSchema) as Fields).fields.override!;
/** The lease a run held (store/lease.ts LeaseSummary), as every report shows it. */
const TAKEOVER = fields({ evidence: { items: 'text' }, reason: 'text' });
const LEASE = fields({ name: 'text', holder: 'text', waitedMs: 'keep', takeover: TAKEOVER });
const RUN = fields({
  file: 'text',
  name: 'text',
  outcome: 'keep',
  startedAt: 'keep',
  durationMs: 'keep',
  steps: { items: INSTANCE },
  selection: fields({ only: 'data', skip: 'data' }),
  matrix: 'data',
  pipelineSha256: 'text',
  rollout: ROLLOUT,
  parked: PARK,
  continued: fields({ wave: 'keep', by: 'text', at: 'keep' }),
  decided: { items: planOf(OperatorDecisionSchema) },
  lease: LEASE,
  resumedFrom: fields({ journal: 'text', name: 'text', file: 'text', samePipeline: 'keep' }),
} satisfies Record<keyof RunResult, Plan>);

/** A call the plan would make (api/recording.ts PlannedCall): its body and query are the pipeline's values. */
const CALL = fields({
  method: 'text',
  path: 'text',
  query: 'data',
  body: 'data',
  contentType: 'text',
} satisfies Record<keyof PlannedCall, Plan>);
const LIVE = fields({ state: 'keep', text: 'text', unprovable: 'text', observed: 'data', unreachable: 'keep' });
/** A step of the plan (plan.ts PlannedStep, which imports this file): a field this does not name is masked as data. */
const PLANNED = fields({
  key: 'text',
  position: 'text',
  name: 'text',
  uses: 'keep',
  server: 'text',
  condition: 'text',
  runs: 'keep',
  calls: { items: CALL },
  note: 'text',
  how: { items: 'text' },
  live: LIVE,
});

/** A run's result, masked through its model: what every report renders. */
export const maskRun = (masker: Masker, result: RunResult): RunResult => by(masker, result, RUN) as RunResult;
/** An instance as it ended, masked again (a channel that hears each instance). */
export const maskInstance = (masker: Masker, run: StepRun): StepRun => by(masker, run, INSTANCE) as StepRun;
/** Instances in the runner's form or the report's (each time ISO 8601, each absent value null: report/model.ts ReportStep). */
export const maskInstances = <T extends object>(masker: Masker, steps: readonly T[]): T[] =>
  by(masker, steps, { items: INSTANCE }) as T[];
/** The plan's steps, and the calls of one. */
export const maskPlanned = <T extends object>(masker: Masker, steps: readonly T[]): T[] =>
  by(masker, steps, { items: PLANNED }) as T[];
export const maskCalls = <T extends object>(masker: Masker, calls: T[]): T[] =>
  by(masker, calls, { items: CALL }) as T[];
export const maskRollout = (masker: Masker, r: RolloutResult): RolloutResult => by(masker, r, ROLLOUT) as RolloutResult;
export const maskPark = (masker: Masker, park: Park): Park => by(masker, park, PARK) as Park;
/** The operator's decisions, in the run's form or the report's (report/model.ts). */
export const maskDecisions = <T extends object>(masker: Masker, decided: readonly T[]): T[] =>
  by(masker, decided, RUN.fields.decided!) as T[];
/** Who overrode a window, why and by which rule. */
export const maskOverride = <T extends { by: string; reason: string; as?: string | undefined }>(
  masker: Masker,
  o: T,
): T => by(masker, o, OVERRIDE) as T;
/** A lease's summary (its takeover's evidence and reason), as the journal and every report keep it. */
export const maskLease = <T extends object>(masker: Masker, lease: T): T => by(masker, lease, LEASE) as T;
export const maskTakeover = <T extends { evidence: string[]; reason: string | null }>(masker: Masker, t: T): T =>
  by(masker, t, TAKEOVER) as T;

function by(masker: Masker, value: unknown, plan: Plan): unknown {
  if (plan === 'keep') return value;
  if (plan === 'text') return typeof value === 'string' ? masker.mask(value) : masker.maskValue(value);
  if (plan === 'data') return masker.maskValue(value);
  if ('items' in plan) {
    if (!Array.isArray(value)) return masker.maskValue(value);
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const masked = by(masker, value[i], plan.items);
      if (out === undefined && masked !== value[i]) out = value.slice(0, i);
      out?.push(masked);
    }
    return out ?? value;
  }
  // Anything but a plain object (a class's instance, one with toJSON) is not the model's: data.
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return masker.maskValue(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return masker.maskValue(value);
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = source[k];
    // A key is the model's, never masked; one the plan does not name is masked as data, with its value.
    const named = Object.hasOwn(plan.fields, k);
    const key = named ? k : masker.mask(k);
    const masked = v === undefined ? undefined : by(masker, v, named ? plan.fields[k]! : 'data');
    if (out === undefined && (v === undefined || key !== k || masked !== v)) {
      out = {};
      for (let j = 0; j < i; j++) if (source[keys[j]!] !== undefined) define(out, keys[j]!, source[keys[j]!]);
    }
    // A key whose value is undefined is left out, as Masker.maskValue leaves it.
    if (out !== undefined && v !== undefined) define(out, key, masked);
  }
  return out ?? value;
}

/** `__proto__` as a key, never as the prototype. */
function define(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
