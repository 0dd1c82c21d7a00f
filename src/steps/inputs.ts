// Input schemas shared by several step types.
import { z } from 'zod';
import { DURATION_LIMIT, MAX_DURATION_MS, MAX_TIMER_MS, parseDuration, TIMER_LIMIT } from '../duration.ts';
import type { Wrap } from './types.ts';

/** A duration no longer than `limitMs`: one issue, the format's or the limit's. */
const durationUpTo = (limitMs: number, limit: string) =>
  z
    .string()
    // The form parseDuration reads, as a pattern: the editor's schema says it too (10 minutes is flagged there).
    .regex(/^\s*(\d+(ms|h|m|s))+\s*$/, { message: 'must be a duration such as 90s, 30m, 2h or 1h30m' })
    .superRefine((s, ctx) => {
      const ms = parseDuration(s);
      if (ms !== undefined && ms > limitMs) ctx.addIssue({ code: 'custom', input: s, message: limit });
    });

/** A duration (a freeze, a bake, a write's expected time): at most 100 years, so a date that far on is one. */
export const durationString = durationUpTo(MAX_DURATION_MS, DURATION_LIMIT);

/** The list inputs' schemas: the editor's JSON Schema takes their string form too (pipeline/json-schema.ts). */
export const LIST_INPUTS = new WeakSet<z.ZodType>();

/** The values of a list written as one string: separated by newlines, commas or semicolons, trimmed, empty ones dropped. */
export const listValues = (text: string): string[] =>
  text
    .split(/[\n,;]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A list input: an array, or a string of values separated by newlines, commas or semicolons. */
export function listOf<T extends z.ZodType>(item: T) {
  const list = z.preprocess((v) => (typeof v === 'string' ? listValues(v) : v), z.array(item));
  LIST_INPUTS.add(list);
  return list;
}

/**
 * Objects of credentials (a target, an update's inline target): a token, or both a
 * username and a password. Registered so the editor's schema says so too (pipeline/json-schema.ts);
 * validation checks it in pipeline/targets-check.ts.
 */
export const CREDENTIAL_OBJECTS = new WeakSet<z.ZodType>();

export function credentialObject<T extends z.ZodType>(schema: T): T {
  CREDENTIAL_OBJECTS.add(schema);
  return schema;
}

/** A number as a file may write it besides as a number: its digits (the editor's schema says the same, pipeline/json-schema.ts). */
export const NUMBER_TEXT = /^\s*-?[0-9]+(\.[0-9]+)?\s*$/;

/**
 * The inputs taken as written in another type, and which: a number (from its digits) or a text
 * (from a number or a boolean). Nothing else is converted: an empty key, a list, a boolean or
 * "0x3E9" is no number, and an empty key or a list is no text (zod's coercion made them 0, 1 and "null").
 */
export const SCALAR_INPUTS = new WeakMap<z.ZodType, 'number' | 'string'>();

/**
 * The converting input, registered for the editor's schema. zod deems a conversion's input
 * optional (a function may take undefined): the input is as optional as the schema it converts
 * to, so the editor's schema keeps it required where the validator requires it.
 */
function scalarInput<P extends z.ZodType>(input: P, schema: z.ZodType, kind: 'number' | 'string'): P {
  Object.defineProperty(input._zod, 'optin', { value: schema._zod.optin, configurable: true, writable: true });
  SCALAR_INPUTS.set(input, kind);
  return input;
}

/** A number input: a number, or its digits in a string. */
export function numberInput<T extends z.ZodType<number>>(schema: T) {
  return scalarInput(
    z.preprocess((v) => (typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : v), schema),
    schema,
    'number',
  );
}

/** A text input: a string, or a number or a boolean as its text (26.11, true). */
export function textInput<T extends z.ZodType<string>>(schema: T) {
  return scalarInput(
    z.preprocess((v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v), schema),
    schema,
    'string',
  );
}

export const intKey = numberInput(z.number().int());

/** A duration that becomes a timer (a wait, a timeout, a lease's ttl): no longer than one holds. */
export const timerDuration = durationUpTo(MAX_TIMER_MS, TIMER_LIMIT);

/** Monitoring data is refreshed about every 2 minutes (enterprise-api.md): a check sooner reads the same data. */
export const MIN_INTERVAL_MS = 2 * 60_000;

/** `wait: { timeout, interval }` of gates: interval default and minimum 2m (monitoring refresh). */
export function waitInput(w: Wrap) {
  return w(
    z.strictObject({
      timeout: w(timerDuration).describe('how long to wait at most: 30m, 2h'),
      interval: w(timerDuration).optional().describe('between checks; default and minimum 2m'),
    }),
  )
    .superRefine((wait, ctx) => {
      if (typeof wait?.interval === 'string' && !wait.interval.includes('${{')) {
        const ms = parseDuration(wait.interval);
        if (ms !== undefined && ms < MIN_INTERVAL_MS) {
          ctx.addIssue({
            code: 'custom',
            path: ['interval'],
            message: 'must be at least 2m: monitoring data is refreshed about every 2 minutes',
          });
        }
      }
    })
    .optional();
}

export interface WaitSpec {
  timeoutMs: number;
  intervalMs: number;
}

export function waitSpec(wait: { timeout: string; interval?: string | undefined } | undefined): WaitSpec | undefined {
  if (!wait) return undefined;
  return {
    timeoutMs: parseDuration(wait.timeout)!,
    intervalMs: Math.max(MIN_INTERVAL_MS, parseDuration(wait.interval ?? '2m')!),
  };
}
