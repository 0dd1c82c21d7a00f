// Reading back a classes/create whose fate is unknown: the entities of its class matching the
// written fields (masked fields left out), counted against the count just before the call, and
// the keys of the class's entities against those just before (verify-entity.ts reads the others).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { EngineClient } from '../api/index.ts';
import { fact } from './observed.ts';
import { withheld } from './entity-withheld.ts';
import type { PlannedCall, Verifier } from './types.ts';
import { listText, writtenFields, type Fields } from './verify-entity.ts';

const Count = z.object({ count: z.int(), keys: z.array(z.union([z.string(), z.number()])).optional() });

/** Up to this many entities of the class, their keys are kept with the snapshot: what shows an entity created since. */
const KEYS_KEPT = 10_000;

/** The keys of every entity of the class (children included), when there are few enough to keep. */
async function classKeys(
  client: EngineClient,
  path: string,
  signal: AbortSignal,
): Promise<(string | number)[] | undefined> {
  const answer = await client.request({ method: 'GET', path }, { signal });
  if (answer.status !== 200 || !Array.isArray(answer.body) || answer.body.length > KEYS_KEPT) return undefined;
  // An entity without a key is known by a digest of it: its text may hold a secret escaped, which
  // JSON would escape again past the masker (the snapshot is written to the journal). Its
  // credentials are left out: a digest of them would be an offline check of each (entity-withheld.ts).
  return (answer.body as Fields[]).map((e) =>
    typeof e.ikey === 'number' || typeof e.ikey === 'string'
      ? e.ikey
      : `sha256:${createHash('sha256')
          .update(JSON.stringify(withheld(e)))
          .digest('hex')}`,
  );
}

/** The equality filters of a create: its written scalar fields. */
function filterOf(body: unknown): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(writtenFields(body)).filter((e): e is [string, string | number | boolean] =>
      ['string', 'number', 'boolean'].includes(typeof e[1]),
    ),
  );
}

async function matching(
  client: EngineClient,
  call: Pick<PlannedCall, 'path' | 'body'>,
  signal: AbortSignal,
): Promise<Fields[]> {
  const answer = await client.request({ method: 'GET', path: call.path, query: filterOf(call.body) }, { signal });
  if (answer.status !== 200 || !Array.isArray(answer.body))
    throw new Error(`GET ${call.path} with the written fields as filters answered ${answer.status}`);
  return answer.body as Fields[];
}

export const entityCreated: Verifier = {
  // Counted by the fields verify counts by: the body as the journal records it, a field written
  // with a secret masked there and left out (nor is a secret sent as a filter in a query string).
  snapshot: async (client, call, signal, _producerOf, shown) => {
    const count = (await matching(client, { path: call.path, body: shown(call.body) }, signal)).length;
    const keys = await classKeys(client, call.path, signal);
    return keys ? { count, keys } : { count };
  },
  async preview(client, call, signal, shown) {
    const written = { path: call.path, body: shown(call.body) };
    const filter = filterOf(written.body);
    const count = (await matching(client, written, signal)).length;
    const by = listText(Object.entries(filter).map(([k, v]) => `${k}=${String(v)}`));
    const subject = `entities with ${by && by.length <= 80 ? by : 'the written fields'}`;
    return {
      text: `${count} ${subject.replace('entities', `entit${count === 1 ? 'y' : 'ies'}`)} now; one more after`,
      observed: { [fact('field', subject)]: String(count) },
    };
  },
  async check(client, call, snapshot, _now, signal) {
    const filter = filterOf(call.body);
    if (Object.keys(filter).length === 0)
      return {
        verdict: 'cannot-tell',
        evidence: 'the journal kept none of the written fields readable to look the entity up by',
      };
    const before = Count.safeParse(snapshot);
    const now = await matching(client, call, signal);
    const by = `with ${listText(Object.entries(filter).map(([k, v]) => `${k}=${String(v)}`))}`;
    // Without the snapshot, no entity with the written fields proves nothing: the server may store
    // a field otherwise (a computed version, a date with a zone, a trimmed text), and only the keys
    // of just before show that no entity of the class was created since.
    if (!before.success)
      return {
        verdict: 'cannot-tell',
        evidence:
          now.length === 0
            ? `no entity ${by}, and no snapshot of the class's entities just before the call: one created since with a field the server stores otherwise (a computed field, a date with a zone, a trimmed text) cannot be ruled out`
            : `${now.length} entit${now.length === 1 ? 'y' : 'ies'} ${by}, and no snapshot of how many there were before the call`,
      };
    if (now.length > before.data.count)
      return {
        verdict: 'applied',
        evidence: `entity ${String(now.at(-1)?.ikey ?? '?')} ${by}: ${before.data.count} such just before the call, ${now.length} now`,
      };
    if (now.length === before.data.count) {
      // No entity with the written fields: proof only when no entity at all was created since (the
      // server may store a field otherwise: a computed version, a date with a zone, a trimmed text).
      const was = before.data.keys;
      const keys = was && (await classKeys(client, call.path, signal));
      if (!was || !keys)
        return {
          verdict: 'cannot-tell',
          evidence: `${now.length} entit${now.length === 1 ? 'y' : 'ies'} ${by}, as just before the call; but the entities of the class were not all read (a journal without them, or more than ${KEYS_KEPT}), so one created with fields the server stores otherwise cannot be ruled out`,
        };
      const known = new Set(was.map(String));
      const added = keys.filter((k) => !known.has(String(k)));
      if (added.length > 0)
        return {
          verdict: 'cannot-tell',
          evidence: `no entity ${by}, but ${added.length === 1 ? `entity ${String(added[0])} was` : `entities ${added.slice(0, 5).map(String).join(', ')} were`} created since just before the call: the server may store a written field otherwise (a computed field, a date with a zone, a trimmed text); compare ${added.length === 1 ? 'it' : 'them'} with the call's fields`,
        };
      return {
        verdict: 'not-applied',
        evidence: `${now.length} entit${now.length === 1 ? 'y' : 'ies'} ${by}, as just before the call, and no entity of the class was created since`,
      };
    }
    return {
      verdict: 'cannot-tell',
      evidence: `${before.data.count} entities ${by} just before the call, ${now.length} now: some were deleted since`,
    };
  },
};
