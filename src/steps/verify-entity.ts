// Reading an entity back to decide a classes/create, update or delete whose fate is unknown. The
// call's path names the entity (update, delete) or its class (create); its body, as the journal
// recorded it (secrets masked), holds the fields written. Masked fields are not compared.
import { z } from 'zod';
import type { EngineClient } from '../api/index.ts';
import { MASK } from '../text/mask.ts';
import { fact } from './observed.ts';
import type { PlannedCall, RecordedCall, Verdict, Verifier } from './types.ts';

type Fields = Record<string, unknown>;
const Entity = z.record(z.string(), z.unknown());
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
  return (answer.body as Fields[]).map((e) =>
    typeof e.ikey === 'number' || typeof e.ikey === 'string' ? e.ikey : JSON.stringify(e),
  );
}

/**
 * The entity at `path` just before a write, for its verifier: null when there is none (404). Any
 * other answer is a read that failed, thrown, so the journal records it as such (and verify cannot
 * tell), never as "no entity".
 */
async function entityBefore(client: EngineClient, path: string, signal: AbortSignal): Promise<Fields | null> {
  const { status, entity } = await entityAt(client, path, signal);
  if (status === 404) return null;
  if (!entity) throw new Error(`GET ${path} answered ${status}${status === 200 ? ', not an entity' : ''}`);
  return entity;
}

/** The written fields that can be compared: those the journal kept readable. */
function writtenFields(body: unknown): Fields {
  const first = Array.isArray(body) ? body[0] : body;
  const fields = Entity.safeParse(first);
  if (!fields.success) return {};
  return Object.fromEntries(Object.entries(fields.data).filter(([, v]) => !JSON.stringify(v ?? null).includes(MASK)));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const differing = (entity: Fields, fields: Fields) => Object.keys(fields).filter((k) => !same(entity[k], fields[k]));
const listText = (names: string[]) => names.join(', ');

async function entityAt(
  client: EngineClient,
  path: string,
  signal: AbortSignal,
): Promise<{ status: number; entity?: Fields }> {
  const answer = await client.request({ method: 'GET', path }, { signal });
  const entity = answer.status === 200 ? Entity.safeParse(answer.body) : undefined;
  return { status: answer.status, entity: entity?.success ? entity.data : undefined };
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
  snapshot: async (client, call, signal) => {
    const count = (await matching(client, call, signal)).length;
    const keys = await classKeys(client, call.path, signal);
    return keys ? { count, keys } : { count };
  },
  async preview(client, call, signal) {
    const filter = filterOf(call.body);
    const count = (await matching(client, call, signal)).length;
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
    if (!before.success)
      return now.length === 0
        ? { verdict: 'not-applied', evidence: `no entity ${by}` }
        : {
            verdict: 'cannot-tell',
            evidence: `${now.length} entit${now.length === 1 ? 'y' : 'ies'} ${by}, and no snapshot of how many there were before the call`,
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

export const entityUpdated: Verifier = {
  snapshot: (client, call, signal) => entityBefore(client, call.path, signal),
  async preview(client, call, signal) {
    const fields = writtenFields(call.body);
    const { status, entity } = await entityAt(client, call.path, signal);
    if (!entity)
      return {
        text: `GET ${call.path} answers ${status}: no entity to update`,
        observed: { [fact('entity', call.path)]: `HTTP ${status}` },
      };
    const observed = Object.fromEntries(
      Object.keys(fields).map((k) => [
        fact('field', `entity ${String(entity.ikey ?? call.path)}: ${k}`),
        JSON.stringify(entity[k] ?? null),
      ]),
    );
    const off = differing(entity, fields);
    if (off.length === 0)
      return { text: `${listText(Object.keys(fields))} hold these values already: nothing would change`, observed };
    return {
      text: off.map((k) => `${k} ${JSON.stringify(entity[k] ?? null)} -> ${JSON.stringify(fields[k])}`).join(', '),
      observed,
    };
  },
  async check(client, call, snapshot, _now, signal) {
    const fields = writtenFields(call.body);
    if (Object.keys(fields).length === 0)
      return { verdict: 'cannot-tell', evidence: 'the journal kept none of the written fields readable to compare' };
    const { status, entity } = await entityAt(client, call.path, signal);
    if (!entity) return { verdict: 'cannot-tell', evidence: `GET ${call.path} answered ${status}` };
    const off = differing(entity, fields);
    const before = Entity.safeParse(snapshot);
    if (off.length === 0) {
      const already = before.success && differing(before.data, fields).length === 0;
      return {
        verdict: 'applied',
        evidence: already
          ? `${listText(Object.keys(fields))} held the written values already before the call, and still do: sending it again changes nothing`
          : `${listText(Object.keys(fields))} hold the written values`,
      };
    }
    if (before.success && differing(entity, before.data).filter((k) => k in fields).length === 0) {
      // The old values prove nothing alone: the write may have been applied and written back since.
      // Its version (iversion) tells: the same as just before the call, nothing was written since.
      const [was, now] = [before.data.iversion, entity.iversion];
      if (was == null || now == null)
        return {
          verdict: 'cannot-tell',
          evidence: `${listText(off)} hold the values of just before the call, but the entity has no version (iversion) to tell whether it was written since`,
        };
      if (!same(was, now))
        return {
          verdict: 'cannot-tell',
          evidence: `${listText(off)} hold the values of just before the call again, but the entity was written since (version ${JSON.stringify(was)} then, ${JSON.stringify(now)} now): the write may have been applied and written back`,
        };
      return { verdict: 'not-applied', evidence: `${listText(off)} still hold the values of just before the call` };
    }
    return {
      verdict: 'cannot-tell',
      evidence: `${listText(off)} hold neither the written values nor those of just before the call${before.success ? '' : ' (no snapshot was recorded)'}`,
    };
  },
};

export const entityDeleted: Verifier = {
  snapshot: (client, call, signal) => entityBefore(client, call.path, signal),
  async preview(client, call, signal) {
    const { status, entity } = await entityAt(client, call.path, signal);
    const observed = { [fact('entity', call.path)]: status === 200 ? 'there' : `HTTP ${status}` };
    if (status === 404) return { text: `GET ${call.path} answers 404: gone already`, observed };
    return {
      text: entity
        ? `entity ${String(entity.ikey ?? '')} ${String(entity.iname ?? '')} exists now; gone after`.replace(
            /\s+/g,
            ' ',
          )
        : `GET ${call.path} answers ${status}`,
      observed,
    };
  },
  async check(client, call: RecordedCall, snapshot, _now, signal): Promise<Verdict> {
    const { status, entity } = await entityAt(client, call.path, signal);
    if (status === 404) return { verdict: 'applied', evidence: `GET ${call.path} answers 404: the entity is gone` };
    if (status !== 200) return { verdict: 'cannot-tell', evidence: `GET ${call.path} answered ${status}` };
    // The path may name the entity by its name: one created since under that name answers too.
    const was = Entity.safeParse(snapshot).data?.ikey;
    const now = entity?.ikey;
    const named = decodeURIComponent(call.path.slice(call.path.lastIndexOf('/') + 1));
    if (was !== undefined && now !== undefined && !same(was, now))
      return {
        verdict: 'applied',
        evidence: `the entity it named (${JSON.stringify(was)} just before the call) is gone: ${named} now names entity ${JSON.stringify(now)}, created since`,
      };
    if (was === undefined && String(now) !== named)
      return {
        verdict: 'cannot-tell',
        evidence: `GET ${call.path} answers 200 (entity ${JSON.stringify(now ?? null)}), and no snapshot says which entity ${named} named just before the call: one created since under that name answers too`,
      };
    // Still there under its key: not applied only if it is the entity of just before the call.
    if (was === undefined)
      return {
        verdict: 'cannot-tell',
        evidence: `GET ${call.path} answers 200, but no snapshot says which entity it was just before the call (its version): it may have been deleted and inserted again`,
      };
    // The same key: still there, unless it was deleted and inserted again since (a replication's
    // insert keeps keys): its version (iversion) the same as just before the call says it was not.
    const version = Entity.safeParse(snapshot).data?.iversion;
    if (version == null || !same(version, entity?.iversion))
      return {
        verdict: 'cannot-tell',
        evidence: `GET ${call.path} answers 200, but ${version == null ? 'no version (iversion) says' : `its version moved since (${JSON.stringify(version)} then, ${JSON.stringify(entity?.iversion ?? null)} now): nothing says`} it is the entity just before the call: it may have been deleted and inserted again`,
      };
    return { verdict: 'not-applied', evidence: `GET ${call.path} answers 200: the entity is still there` };
  },
};
