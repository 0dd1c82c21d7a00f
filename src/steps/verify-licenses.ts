// Reading the licenses back to decide a licensing/add or licensing/remove whose fate is unknown:
// the licenses now against those the journal recorded just before the call was sent. A license
// that came is an add's only on proof that its code holds it (code-holds.ts): anyone may add one.
// Neither is ever proved not applied: a license has no id, version or creation time, so licenses
// as they were just before the call read the same as the add applied and its licenses removed (or
// replaced) since, or the license removed and added again since.
import { z } from 'zod';
import { License, type EngineClient } from '../api/index.ts';
import { CodeHolds, codeHolds, describeHeld, isHeld } from './code-holds.ts';
import { licenseFacts } from './observed.ts';
import type { Preview, Verdict, Verifier } from './types.ts';
import { answered, apiSaysGone } from './verify-entity.ts';

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

/** A licensing/add's snapshot: the licenses just before the call, and what its code holds when the run knows it (code-holds.ts). */
const AddSnapshot = z.union([
  Snapshot.transform((licenses) => ({ licenses, code: undefined })),
  z.object({ licenses: Snapshot, code: CodeHolds.optional() }),
]);

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

const DECIDE = 'check on the server, then decide (skip or retry)';
const UNSTAMPED = 'a license has no id, version or creation time';

/**
 * Known what the code holds: applied when all of it is there now; else cannot tell, saying whether
 * the products it licenses hold just what they held before the call (the other products are no
 * write of this one: which proves nothing either, the code's licenses may have been added and
 * removed since) or someone else changed them since.
 */
function byCode(code: CodeHolds, before: License[], now: License[]): Verdict {
  const asked = `as "${code.step}" asked for ${code.licenses.length === 1 ? 'it' : 'them'}`;
  const the = code.licenses.length === 1 ? 'the license' : 'the licenses';
  const there = now.filter((l) => code.licenses.some((h) => isHeld(h, l)));
  if (code.licenses.every((h) => there.some((l) => isHeld(h, l)))) {
    const had = new Set(before.map(identity));
    return {
      verdict: 'applied',
      evidence: `${there.map(describe).join(', ')}: ${the} the code holds (${asked}), ${
        there.some((l) => !had.has(identity(l)))
          ? 'not there just before the call, there now'
          : 'there just before the call already (sending it again changes nothing)'
      }`,
    };
  }
  const products = [...new Set(code.licenses.map((h) => h.productKey))];
  const state = (list: License[], key: number) => {
    const l = list.find((x) => x.productKey === key);
    return l ? describe(l) : 'no license';
  };
  const holds = `${code.licenses.length === 1 ? 'the one' : 'those'} the code holds (${code.licenses.map(describeHeld).join(', ')}, ${asked})`;
  const changed = products.filter((key) => !sameOf(before, now, key));
  if (changed.length === 0)
    return {
      verdict: 'cannot-tell',
      evidence: `${products.map((key) => `product ${key} has ${state(now, key)}`).join(', ')}, as just before the call, and not ${holds}; but ${UNSTAMPED}, so ${code.licenses.length === 1 ? 'the one the code holds, added and removed since (or replaced by the license of before), reads' : 'those the code holds, added and removed since (or replaced by the licenses of before), read'} the same: ${DECIDE}`,
    };
  return {
    verdict: 'cannot-tell',
    evidence: `${changed.map((key) => `product ${key} had ${state(before, key)} just before the call, ${state(now, key)} now`).join('; ')}; that is not ${holds}: someone else changed ${changed.length === 1 ? 'its license' : 'their licenses'} since: ${DECIDE}`,
  };
}

/** The product's license (or none) is the same license in both lists, every field of identity alike. */
function sameOf(a: License[], b: License[], key: number): boolean {
  const [x, y] = [a.find((l) => l.productKey === key), b.find((l) => l.productKey === key)];
  return x === undefined || y === undefined ? x === y : identity(x) === identity(y);
}

export const licensesAdded: Verifier = {
  snapshot: async (client, call, signal, producerOf) => ({
    licenses: await licenses(client, signal),
    code: typeof call.body === 'string' ? codeHolds(producerOf(call.body)) : undefined,
  }),
  preview: (client, _call, signal) =>
    licensesNow(client, signal).then((now) => ({
      ...now,
      text: `${now.text} (the code's licenses are known once it is read by the server)`,
    })),
  async check(client, _call, snapshot, _now, signal) {
    const parsed = AddSnapshot.safeParse(snapshot);
    if (!parsed.success) return NO_SNAPSHOT;
    const { licenses: before, code } = parsed.data;
    const now = await licenses(client, signal);
    if (code) return byCode(code, before, now);
    const had = new Set(before.map(identity));
    const has = new Set(now.map(identity));
    const added = now.filter((l) => !had.has(identity(l)));
    const gone = before.filter((l) => !has.has(identity(l)));
    if (added.length === 0 && gone.length === 0)
      return {
        verdict: 'cannot-tell',
        evidence: `the ${now.length} license(s) now are exactly those just before the call; but ${UNSTAMPED}, so the code's licenses, added and removed since (or replaced by the licenses of before), read the same: ${DECIDE}`,
      };
    // What the code holds is not known: a license that came may be anyone's.
    const changes = [
      ...(added.length > 0 ? [`${added.map(describe).join(', ')}: not there just before the call, there now`] : []),
      ...(gone.length > 0
        ? [`${gone.map(describe).join(', ')}: there just before the call, gone or changed since`]
        : []),
    ];
    return {
      verdict: 'cannot-tell',
      evidence: `${changes.join('; ')}; but what the code holds is not known (no licensing/create step of the run made it): someone else's change reads the same: ${DECIDE}`,
    };
  },
};

/** The product key a licensing/remove names in its path. */
const keyOf = (path: string) => Number(path.split('/').at(-1));

/**
 * A license there now never proves a remove not applied: a license has no id, version or creation
 * time, so the one of just before, removed and added again since (the same code added again, a
 * renewal), reads the same. Only its absence is proof (applied: sending it again answers 204).
 */
export const licenseRemoved: Verifier = {
  snapshot: (client, _call, signal) => licenses(client, signal),
  preview: (client, call, signal) => licensesNow(client, signal, keyOf(call.path)),
  async check(client, call, snapshot, _now, signal) {
    const key = keyOf(call.path);
    const before = snapshotOf(snapshot);
    const then = before?.find((l) => l.productKey === key);
    const answer = await client.request({ method: 'GET', path: call.path }, { signal });
    // Gone is proof only in the API's word: a proxy's 404 page says nothing of the license.
    if (apiSaysGone(answer)) {
      return {
        verdict: 'applied',
        evidence: `GET ${call.path} answers 404: product ${key} has no license now${then ? ' (it had one just before the call)' : ''}`,
      };
    }
    if (answer.status !== 200)
      return { verdict: 'cannot-tell', evidence: `GET ${call.path} answered ${answered(answer.status)}` };
    const read = License.safeParse(answer.body);
    const has = `GET ${call.path} answers 200: product ${key} has ${read.success ? describe(read.data) : 'a license'}`;
    if (!before)
      return {
        verdict: 'cannot-tell',
        evidence: `${has}, and no snapshot says which license it had just before the call: a license has no id or version, so one removed and added again since reads the same: ${DECIDE}`,
      };
    if (!then)
      return {
        verdict: 'cannot-tell',
        evidence: `product ${key} has a license now, and had none just before the call: one was added since`,
      };
    if (!read.success || identity(read.data) !== identity(then))
      return {
        verdict: 'cannot-tell',
        evidence: `${has}, not the license of just before the call (${describe(then)}): removed and another added since, or changed: ${DECIDE}`,
      };
    return {
      verdict: 'cannot-tell',
      evidence: `${has}, the same in every field as just before the call; but ${UNSTAMPED}, so one removed and added again since reads the same: ${DECIDE}`,
    };
  },
};
