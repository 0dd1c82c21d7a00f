// A record of the run store read back: its JSON, parsed by its schema. A body that is not JSON, or
// not of the schema, was cut, altered or written by something else: STORE_DAMAGED, for a retry
// reads the same record (the lease's records, a sharded run's).
import { z } from 'zod';
import { StoreError, type RunStore } from './store.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

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

/**
 * The record at `key` parsed by `schema`; STORE_DAMAGED naming it as not `what` of enginectl, with
 * `hint`. A record whose `v` is an integer above every one of `versions` (the versions the schema
 * reads) was written by a newer enginectl (a job of the rollout on a newer version than this
 * one): STORE_VERSION, saying so, never read as damaged (whose hints say to put it back or remove it).
 */
export function parseStoreRecord<T>(
  store: RunStore,
  key: string,
  body: Buffer | undefined,
  schema: z.ZodType<T>,
  what: string,
  hint: string,
  versions: readonly number[] = [],
  /** How the surface names the jobs of a store, in a newer record's hint (the CLI's commands by default). */
  ways: WaysOn = CLI_WAYS,
): T {
  const json = recordJson(body);
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const v = (json as { v?: unknown } | null | undefined)?.v;
  if (versions.length > 0 && Number.isSafeInteger(v) && (v as number) > Math.max(...versions))
    throw new StoreError(
      'STORE_VERSION',
      `${store.url}: ${key} is ${what} of version ${v as number}, written by a newer enginectl than this one (which reads ${versions.length === 1 ? 'version' : 'versions'} ${versions.slice(0, -1).join(', ')}${versions.length > 1 ? ' and ' : ''}${versions.at(-1)!})`,
      {
        hint: `run every job of this run store (${ways.storeJobs}) with that enginectl or a later one; nothing was done from this record`,
      },
    );
  throw new StoreError('STORE_DAMAGED', `${store.url}: ${key} is not ${what} of enginectl`, { hint });
}

/**
 * `parse` of `body`, read from `key`; a body it finds damaged (STORE_DAMAGED) is read once more: a
 * proxy or a network between that cut or changed it in transit (an S3 answer of 200 whose body and
 * Content-Length a proxy rewrote) answers whole the second time, and that is what is parsed. Read
 * the same twice (or gone the second time: a key is never removed), it is damaged, its hint saying
 * which and, first, to read it with another client: nothing is to be put back or removed for what a
 * proxy between may change.
 */
export async function parseOrReadAgain<T>(
  store: RunStore,
  key: string,
  body: Buffer | undefined,
  parse: (body: Buffer | undefined) => T,
): Promise<T> {
  try {
    return parse(body);
  } catch (error) {
    if (!(error instanceof StoreError) || error.code !== 'STORE_DAMAGED') throw error;
    const again = await store.get(key);
    if (again !== undefined && (body === undefined || !again.equals(body))) return parse(again);
    const other = /^s3:/i.test(store.url)
      ? `aws s3 cp s3://BUCKET/PREFIX/${key} -`
      : `cat ${key} in the store's directory`;
    // Gone when read again: a key enginectl wrote is never removed (the store is create-only), so
    // the store, or what stands between, answered it damaged once and not at all the next time.
    const twice =
      again === undefined && body !== undefined
        ? 'it was read twice: damaged the first time, not there the second (enginectl removes no key)'
        : 'it was read twice, the same both times';
    throw new StoreError('STORE_DAMAGED', error.message, {
      cause: error,
      hint: `${twice}: read it with another client (${other}) first (a proxy between may change what it answers); then ${error.hint ?? 'check the store'}`,
    });
  }
}
