// A record of the run store read back: its JSON, parsed by its schema. A body that is not JSON, or
// not of the schema, was cut, altered or written by something else: STORE_DAMAGED, for a retry
// reads the same record (the lease's records, a sharded run's).
import { z } from 'zod';
import { StoreError, type RunStore } from './store.ts';

/** A time of a record (epoch ms) a date can hold (±8.64e15): a record past it was not written by enginectl. */
export const Instant = z.number().min(-8.64e15).max(8.64e15);

/** A record's JSON, or undefined when it is absent or not JSON. */
export function recordJson(body: Buffer | undefined): unknown {
  try {
    return body ? (JSON.parse(body.toString('utf8')) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** The record at `key` parsed by `schema`; STORE_DAMAGED naming it as not `what` of enginectl, with `hint`. */
export function parseStoreRecord<T>(
  store: RunStore,
  key: string,
  body: Buffer | undefined,
  schema: z.ZodType<T>,
  what: string,
  hint: string,
): T {
  const parsed = schema.safeParse(recordJson(body));
  if (!parsed.success)
    throw new StoreError('STORE_DAMAGED', `${store.url}: ${key} is not ${what} of enginectl`, { hint });
  return parsed.data;
}
