// Reading the licenses back to decide a licensing/add or licensing/remove whose fate is unknown:
// the licenses now against those the journal recorded just before the call was sent.
import { z } from 'zod';
import { License, type EngineClient } from '../api/index.ts';
import { licenseFacts } from './observed.ts';
import type { Preview, Verdict, Verifier } from './types.ts';

const Snapshot = z.array(License);

/** What makes two licenses the same license (the API gives a license no id of its own). */
const identity = (l: License) =>
  JSON.stringify([
    l.productKey,
    l.type,
    l.quantity,
    l.licenseeId,
    l.licenserKey,
    l.expiration,
    [...(l.extensions ?? [])].sort(),
  ]);
const describe = (l: License) =>
  `${l.productName} (product ${l.productKey}, ${l.type} ${l.quantity}, until ${l.expiration})`;

const NO_SNAPSHOT: Verdict = {
  verdict: 'cannot-tell',
  evidence: 'no snapshot of the licenses was recorded before the call',
};

function snapshotOf(value: unknown): License[] | undefined {
  const parsed = Snapshot.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const licenses = (client: EngineClient, signal: AbortSignal) => client.licensing.licenses({ signal });

/** The licenses now, in words and as facts, for the live plan. */
async function licensesNow(client: EngineClient, signal: AbortSignal, product?: number): Promise<Preview> {
  const now = (await licenses(client, signal)).filter((l) => product === undefined || l.productKey === product);
  const text =
    now.length === 0
      ? product === undefined
        ? 'no license now'
        : `product ${product} has no license now`
      : `now: ${now.map(describe).join(', ')}`;
  return { text, observed: licenseFacts(now) };
}

export const licensesAdded: Verifier = {
  snapshot: (client, _call, signal) => licenses(client, signal),
  preview: (client, _call, signal) =>
    licensesNow(client, signal).then((now) => ({
      ...now,
      text: `${now.text} (the code's licenses are known once it is read by the server)`,
    })),
  async check(client, _call, snapshot, _now, signal) {
    const before = snapshotOf(snapshot);
    if (!before) return NO_SNAPSHOT;
    const now = await licenses(client, signal);
    const had = new Set(before.map(identity));
    const added = now.filter((l) => !had.has(identity(l)));
    if (added.length > 0)
      return {
        verdict: 'applied',
        evidence: `${added.map(describe).join(', ')}: not there just before the call, there now`,
      };
    const has = new Set(now.map(identity));
    const gone = before.filter((l) => !has.has(identity(l)));
    if (gone.length > 0)
      return {
        verdict: 'cannot-tell',
        evidence: `no license was added, but ${gone.map(describe).join(', ')} changed or went since the call`,
      };
    return {
      verdict: 'not-applied',
      evidence: `the ${now.length} license(s) now are exactly those just before the call (a code whose licenses were already there changes nothing when sent again either)`,
    };
  },
};

/** The product key a licensing/remove names in its path. */
const keyOf = (path: string) => Number(path.split('/').at(-1));

export const licenseRemoved: Verifier = {
  snapshot: (client, _call, signal) => licenses(client, signal),
  preview: (client, call, signal) => licensesNow(client, signal, keyOf(call.path)),
  async check(client, call, snapshot, _now, signal) {
    const key = keyOf(call.path);
    const before = snapshotOf(snapshot);
    const was = before?.some((l) => l.productKey === key);
    const answer = await client.request({ method: 'GET', path: call.path }, { signal });
    if (answer.status === 404) {
      return {
        verdict: 'applied',
        evidence: `GET ${call.path} answers 404: product ${key} has no license now${was ? ' (it had one just before the call)' : ''}`,
      };
    }
    if (answer.status !== 200)
      return { verdict: 'cannot-tell', evidence: `GET ${call.path} answered ${answer.status}` };
    if (was === false)
      return {
        verdict: 'cannot-tell',
        evidence: `product ${key} has a license now, and had none just before the call: one was added since`,
      };
    return { verdict: 'not-applied', evidence: `GET ${call.path} answers 200: product ${key} still has its license` };
  },
};
