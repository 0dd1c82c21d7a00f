// Reading an entity back to decide a classes/delete whose fate is unknown: the path names the
// entity by its key or by its name (iname); a name may move to another entity (renamed, created
// since), so what it named just before the call (the snapshot's key) is read by its key.
import type { EngineClient } from '../api/index.ts';
import { fact } from './observed.ts';
import type { RecordedCall, Verdict, Verifier } from './types.ts';
import { answered, Entity, entityAt, entityBefore, same } from './verify-entity.ts';

/**
 * What `found` at the path says of the entity it named just before the call, read by its key: gone
 * (the API's 404) is the delete applied; there (200) is not, whatever the name names now.
 */
async function goneByKey(
  client: EngineClient,
  path: string,
  key: unknown,
  found: string,
  applied: string,
  signal: AbortSignal,
): Promise<Verdict> {
  const at = `${path.slice(0, path.lastIndexOf('/') + 1)}${encodeURIComponent(String(key))}`;
  const { status, gone } = await entityAt(client, at, signal);
  if (gone) return { verdict: 'applied', evidence: applied };
  return {
    verdict: 'cannot-tell',
    evidence:
      status === 200
        ? `${found}, but the entity it named just before the call (${JSON.stringify(key)}) is still there (GET ${at} answers 200): renamed since, it was not deleted, or was deleted and inserted again`
        : `${found}, and GET ${at} (the entity it named just before the call) answered ${answered(status)}`,
  };
}

export const entityDeleted: Verifier = {
  snapshot: (client, call, signal) => entityBefore(client, call.path, signal),
  async preview(client, call, signal) {
    const { status, entity, gone } = await entityAt(client, call.path, signal);
    const observed = { [fact('entity', call.path)]: status === 200 ? 'there' : `HTTP ${status}` };
    if (gone) return { text: `GET ${call.path} answers 404: gone already`, observed };
    return {
      text: entity
        ? `entity ${String(entity.ikey ?? '')} ${String(entity.iname ?? '')} exists now; gone after`.replace(
            /\s+/g,
            ' ',
          )
        : `GET ${call.path} answers ${answered(status)}`,
      observed,
    };
  },
  async check(client, call: RecordedCall, snapshot, _now, signal): Promise<Verdict> {
    const { status, entity, gone } = await entityAt(client, call.path, signal);
    const named = decodeURIComponent(call.path.slice(call.path.lastIndexOf('/') + 1));
    const was = Entity.safeParse(snapshot).data?.ikey;
    // An integer names the entity by its key, which no other takes; a name (iname) may have moved.
    if (gone) {
      if (snapshot === null)
        return {
          verdict: 'applied',
          evidence: `GET ${call.path} answers 404, as it did just before the call: no entity to delete, then or now`,
        };
      if (/^-?\d+$/.test(named))
        return { verdict: 'applied', evidence: `GET ${call.path} answers 404: the entity is gone` };
      if (was === undefined)
        return {
          verdict: 'cannot-tell',
          evidence: `GET ${call.path} answers 404, but no snapshot says which entity ${named} named just before the call: renamed since, it would still be there`,
        };
      const gone = `GET ${call.path} answers 404, and so does the entity it named just before the call (${JSON.stringify(was)}), read by its key: the entity is gone`;
      return goneByKey(client, call.path, was, `GET ${call.path} answers 404`, gone, signal);
    }
    if (status !== 200) return { verdict: 'cannot-tell', evidence: `GET ${call.path} answered ${answered(status)}` };
    // The path may name the entity by its name: one named so since answers too.
    const now = entity?.ikey;
    if (was !== undefined && now !== undefined && !same(was, now)) {
      const found = `${named} now names entity ${JSON.stringify(now)}`;
      const gone = `the entity it named (${JSON.stringify(was)} just before the call) is gone: ${found}, created since`;
      return goneByKey(client, call.path, was, found, gone, signal);
    }
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
