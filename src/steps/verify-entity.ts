// Reading an entity back to decide a classes/update whose fate is unknown (a create:
// verify-entity-created.ts; a delete: verify-entity-deleted.ts). The call's path names the entity;
// its body, as the journal recorded it (secrets masked), holds the fields written. Masked fields
// are not compared: the journal keeps no form of a secret (no file is an offline check of one), and
// the environment's value when verify runs need not be the value sent; so they are named, and the
// verdict rests on what else was read. The snapshot never keeps the value of before of a masked
// field, nor of a field whose name says it holds a credential (entity-withheld.ts): such a field
// written readable is compared with the entity now only, and the version tells the rest.
import { z } from 'zod';
import { inApiShape } from '../api/fate.ts';
import type { EngineClient } from '../api/index.ts';
import { MASK } from '../text/mask.ts';
import { withheld, withholdsIn } from './entity-withheld.ts';
import { fact } from './observed.ts';
import type { Verdict, Verifier } from './types.ts';

export type Fields = Record<string, unknown>;
export const Entity = z.record(z.string(), z.unknown());

/**
 * The entity at `path` just before a write, for its verifier: null when there is none (404). Any
 * other answer is a read that failed, thrown, so the journal records it as such (and verify cannot
 * tell), never as "no entity". Its credentials and the fields the call writes with a secret
 * (`written`, masked in the body the journal records) are withheld: the journal keeps this.
 */
export async function entityBefore(
  client: EngineClient,
  path: string,
  signal: AbortSignal,
  written: readonly string[] = [],
): Promise<Fields | null> {
  const { status, entity, gone } = await entityAt(client, path, signal);
  if (gone) return null;
  if (!entity) throw new Error(`GET ${path} answered ${answered(status)}${status === 200 ? ', not an entity' : ''}`);
  return withheld(entity, written) as Fields;
}

const bodyFields = (body: unknown): [string, unknown][] =>
  Object.entries(Entity.safeParse(Array.isArray(body) ? body[0] : body).data ?? {});
const isMasked = (value: unknown) => JSON.stringify(value ?? null).includes(MASK);

/** The written fields, as the body gives them. */
export const bodyOf = (body: unknown): Fields => Object.fromEntries(bodyFields(body));

/** The written fields that can be compared: those the journal kept readable. */
export function writtenFields(body: unknown): Fields {
  return Object.fromEntries(bodyFields(body).filter(([, v]) => !isMasked(v)));
}

/** The written fields the journal masked (a secret in them): named, never compared. */
export function maskedFields(body: unknown): string[] {
  return bodyFields(body).flatMap(([k, v]) => (isMasked(v) ? [k] : []));
}

/**
 * `fields` split: those whose value of before the snapshot keeps, and those it withholds in whole
 * or in part (a credential by its name, or a key inside it named so: its value of before never
 * equals the written one, which proves nothing).
 */
function keptBefore(fields: Fields): [Fields, string[]] {
  const unkept = Object.keys(fields).filter((k) => withholdsIn(k, fields[k]));
  return [Object.fromEntries(Object.entries(fields).filter(([k]) => !unkept.includes(k))), unkept];
}
const UNKEPT = 'not kept before the call: a credential by its name';

/** What the written fields now holding the values of just before say: those kept, and those not (compared with the written values only). */
function oldValues(off: string[], kept: Fields, again = ''): string {
  const [known, unkept] = [off.filter((k) => k in kept), off.filter((k) => !(k in kept))];
  const not = `${listText(unkept)} ${known.length ? 'not' : 'do not hold'} the written values (${UNKEPT})`;
  if (known.length === 0) return not;
  return `${listText(known)} hold the values of just before the call${again}${unkept.length ? `, ${not}` : ''}`;
}

export const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const differing = (entity: Fields, fields: Fields) => Object.keys(fields).filter((k) => !same(entity[k], fields[k]));
export const listText = (names: string[]) => names.join(', ');

/**
 * The entity at `path` as the server answers: `entity` when it is one (200), `gone` when the API
 * says there is none (404 in the API's own shape, api/fate.ts inApiShape). A 404 that is not the
 * API's (a proxy's or an ingress's page) says nothing of the entity: neither, a read that failed.
 */
export async function entityAt(
  client: EngineClient,
  path: string,
  signal: AbortSignal,
): Promise<{ status: number; entity?: Fields; gone: boolean }> {
  const answer = await client.request({ method: 'GET', path }, { signal });
  const entity = answer.status === 200 ? Entity.safeParse(answer.body) : undefined;
  const gone = apiSaysGone(answer);
  return { status: answer.status, entity: entity?.success ? entity.data : undefined, gone };
}

/** The API's own 404 (api/fate.ts inApiShape): what is asked for is not there; a proxy's 404 page says nothing. */
export const apiSaysGone = (answer: { status: number; contentType: string; text: string }) =>
  answer.status === 404 && inApiShape(answer.status, answer.contentType, answer.text);

/** A status as evidence: a 404 not in the API's shape is said to be another's page. */
export const answered = (status: number, gone = false) =>
  status === 404 && !gone ? "404, not the API's answer (a proxy's or gateway's page)" : String(status);

/**
 * An update whose readable fields held the written values just before the call (or no snapshot
 * says; those whose value of before it does not keep, `unkept`, hold them now), and still do, and
 * whose masked fields cannot be compared: only the version tells, the one of just before saying
 * nothing was written since.
 */
function unshown(kept: string[], unkept: string[], masked: string, was: Fields | undefined, entity: Fields): Verdict {
  const unseen = `${masked} cannot be compared (masked in the journal)`;
  if (!was)
    return {
      verdict: 'cannot-tell',
      evidence: `${listText([...kept, ...unkept])} hold the written values, but no snapshot says whether they did just before the call, and ${unseen}: nothing read shows whether the write was applied`,
    };
  const now = unkept.length ? `${listText(unkept)} hold the written values (${UNKEPT})` : '';
  const held = kept.length ? `${listText(kept)} held the written values already before the call` : now;
  const still = kept.length ? `${held}, and still do${now && `, ${now}`}` : now;
  const [then, at] = [was.iversion, entity.iversion];
  if (then == null || at == null)
    return {
      verdict: 'cannot-tell',
      evidence: `${still}, and ${unseen}: the entity has no version (iversion) to tell whether it was written since`,
    };
  if (!same(then, at))
    return {
      verdict: 'cannot-tell',
      evidence: `${still}, and ${unseen}: the entity was written since (version ${JSON.stringify(then)} then, ${JSON.stringify(at)} now), by this call or another`,
    };
  return {
    verdict: 'not-applied',
    evidence: `${kept.length && unkept.length ? `${held}, ${now}` : held}, and the entity is at its version of just before the call (${JSON.stringify(at)}): nothing was written since, so neither was ${masked} (masked in the journal, not compared)`,
  };
}

export const entityUpdated: Verifier = {
  snapshot: (client, call, signal, _producerOf, shown) =>
    entityBefore(client, call.path, signal, maskedFields(shown(call.body))),
  async preview(client, call, signal, shown) {
    // The body as the journal would record it: a field written with a secret is masked there.
    const body = shown(call.body);
    const [fields, unkept] = keptBefore(writtenFields(body));
    const unseen = [...maskedFields(body), ...unkept];
    const { status, entity } = await entityAt(client, call.path, signal);
    if (!entity)
      return {
        text: `GET ${call.path} answers ${status}: no entity to update`,
        observed: { [fact('entity', call.path)]: `HTTP ${status}` },
      };
    // Compared as the server holds them, quoted once masked; the fields never kept are not shown,
    // nor compared (whether the secret is the value held now would say something of either).
    const seen = shown(withheld(entity, unseen)) as Fields;
    const observed = Object.fromEntries(
      Object.keys(fields).map((k) => [
        fact('field', `entity ${String(seen.ikey ?? call.path)}: ${k}`),
        JSON.stringify(seen[k] ?? null),
      ]),
    );
    const off = differing(entity, fields);
    if (off.length === 0 && unseen.length === 0)
      return { text: `${listText(Object.keys(fields))} hold these values already: nothing would change`, observed };
    const written = bodyOf(body);
    return {
      text: [
        ...off.map((k) => `${k} ${JSON.stringify(seen[k] ?? null)} -> ${JSON.stringify(written[k])}`),
        ...unseen.map((k) => `${k} (not shown) -> ${JSON.stringify(written[k] ?? null)}`),
      ].join(', '),
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
    const masked = listText(maskedFields(call.body));
    // A path by name may name another entity now (the first deleted, or renamed, and another named
    // so since): it holding the written values still says sending again changes nothing, but
    // compared with the entity of just before, it proves nothing of the write.
    const [was, now] = [before.data?.ikey, entity.ikey];
    if ((off.length > 0 || masked) && was !== undefined && now !== undefined && !same(was, now)) {
      const named = decodeURIComponent(call.path.slice(call.path.lastIndexOf('/') + 1));
      return {
        verdict: 'cannot-tell',
        evidence: `${named} names entity ${JSON.stringify(now)} now, not entity ${JSON.stringify(was)} as just before the call: what it holds says nothing of the write`,
      };
    }
    // The snapshot keeps no value of before of a field named as a credential: compared now only.
    const [kept, unkept] = keptBefore(fields);
    if (off.length === 0) {
      const already = before.success && differing(before.data, kept).length === 0;
      // A field not compared is not written again by sending the call again: the readable ones
      // show the write only when they moved to the written values since just before the call.
      if (masked && (already || !before.success))
        return unshown(Object.keys(kept), unkept, masked, before.data, entity);
      return {
        verdict: 'applied',
        evidence:
          already && unkept.length === 0
            ? `${listText(Object.keys(fields))} held the written values already before the call, and still do: sending it again changes nothing`
            : `${listText(Object.keys(fields))} hold the written values${masked ? ` (${masked}, masked in the journal, not compared)` : ''}`,
      };
    }
    if (before.success && differing(entity, before.data).filter((k) => k in kept).length === 0) {
      // The old values prove nothing alone: the write may have been applied and written back since.
      // Its version (iversion) tells: the same as just before the call, nothing was written since.
      const [was, now] = [before.data.iversion, entity.iversion];
      if (was == null || now == null)
        return {
          verdict: 'cannot-tell',
          evidence: `${oldValues(off, kept)}, but the entity has no version (iversion) to tell whether it was written since`,
        };
      if (!same(was, now))
        return {
          verdict: 'cannot-tell',
          evidence: `${oldValues(off, kept, ' again')}, but the entity was written since (version ${JSON.stringify(was)} then, ${JSON.stringify(now)} now): the write may have been applied and written back`,
        };
      const known = off.filter((k) => k in kept);
      return {
        verdict: 'not-applied',
        evidence:
          known.length === off.length
            ? `${listText(off)} still hold the values of just before the call`
            : `${oldValues(off, kept)}, and the entity is at its version of just before the call (${JSON.stringify(now)}): nothing was written since`,
      };
    }
    return {
      verdict: 'cannot-tell',
      evidence: `${listText(off)} hold neither the written values nor those of just before the call${before.success ? '' : ' (no snapshot was recorded)'}`,
    };
  },
};
