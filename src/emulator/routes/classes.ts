// Classes area routes (enterprise-api.md 4.1).
import { recordChange } from '../changes.ts';
import type { RouteContext } from '../context.ts';
import {
  allEntities,
  children,
  classSchema,
  descendants,
  fieldProblems,
  fieldsOf,
  findClass,
  findEntity,
  isLogClass,
  requireTable,
  requiredOf,
  versionProblems,
  withAllFields,
} from '../entity-model.ts';
import { badRequest, HttpProblem, intParam, json, jsonBody, type EmuRequest } from '../http.ts';
import type { Router } from '../router.ts';
import type { ClassDef, StoredEntity } from '../state.ts';
import { API_BASE } from '../../api/areas.ts';

const BASE = API_BASE.classes;

/** The entity objects of a write body: one object, or an array of objects as the samples send. */
function entityObjects(req: EmuRequest): Record<string, unknown>[] {
  const body = jsonBody(req);
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) throw badRequest('the body holds no entity; send an array holding one entity object');
  for (const item of list) {
    if (!item || typeof item !== 'object' || Array.isArray(item))
      throw badRequest('each entity in the body must be a JSON object');
  }
  return list as Record<string, unknown>[];
}

function scopeOf(ctx: RouteContext, classKey: number): number[] {
  findClass(ctx.state, classKey);
  return [classKey, ...descendants(ctx.state, classKey)];
}

/** The classes an entity asked for through `classKey` may be of: an error when that class defines no table (api 1.2). */
function entityScope(ctx: RouteContext, classKey: number): number[] {
  requireTable(ctx.state, findClass(ctx.state, classKey));
  return scopeOf(ctx, classKey);
}

function refuseLogWrites(ctx: RouteContext, cls: ClassDef): void {
  if (isLogClass(ctx.state, cls.key)) {
    throw badRequest(
      `class ${cls.key} (${cls.name}) is the transaction log: the system writes it; clear it with POST /api/devops/v1/transaction-log/clear`,
    );
  }
}

function list(ctx: RouteContext, classKey: number, query: URLSearchParams) {
  const cls = findClass(ctx.state, classKey);
  requireTable(ctx.state, cls);
  const scope = scopeOf(ctx, classKey);
  const known = new Set(scope.flatMap((k) => Object.keys(fieldsOf(ctx.state, findClass(ctx.state, k)))));
  const filters = [...query.entries()];
  const unknown = filters.filter(([field]) => !known.has(field)).map(([field]) => field);
  if (unknown.length > 0) {
    throw badRequest(
      `unknown filter field ${unknown.join(', ')} for class ${classKey}`,
      unknown.map((field) => ({ field, message: `no class in ${classKey}'s hierarchy has a field ${field}` })),
    );
  }
  const matches = (value: unknown, wanted: string) =>
    Array.isArray(value) ? value.some((v) => String(v) === wanted) : String(value ?? 'null') === wanted;
  return allEntities(ctx.state).filter(
    (e) =>
      scope.includes(e.iclass) &&
      filters.every(([field, wanted]) => matches((e as Record<string, unknown>)[field], wanted)),
  );
}

function create(ctx: RouteContext, classKey: number, req: EmuRequest) {
  const routeClass = findClass(ctx.state, classKey);
  requireTable(ctx.state, routeClass);
  const objects = entityObjects(req);
  if (objects.length > 1) throw badRequest(`the body holds ${objects.length} entities; create one entity per request`);
  const fields = { ...objects[0]! };
  const targetKey = fields.iclass === undefined ? classKey : fields.iclass;
  if (!Number.isInteger(targetKey) || !scopeOf(ctx, classKey).includes(targetKey as number)) {
    throw badRequest(`iclass ${JSON.stringify(targetKey)} is not class ${classKey} or one of its descendants`);
  }
  const cls = findClass(ctx.state, targetKey as number);
  requireTable(ctx.state, cls);
  refuseLogWrites(ctx, routeClass);
  refuseLogWrites(ctx, cls);
  delete fields.iclass;
  const version = versionProblems(fields);
  delete fields.iversion;
  const { ikey: givenKey, ...rest } = fields;
  // The key is an integer, null never (api 2.1: Required): left out, one is given.
  const problems =
    givenKey === undefined || Number.isSafeInteger(givenKey)
      ? []
      : [
          {
            field: 'ikey',
            message: `ikey must be an integer key (or left out to have one given), got ${JSON.stringify(givenKey)}`,
          },
        ];
  problems.push(...version, ...fieldProblems(ctx.state, cls, rest));
  const missing = requiredOf(ctx.state, cls).filter(
    (f) => f !== 'iclass' && f !== 'ikey' && (fields[f] === undefined || fields[f] === null),
  );
  problems.push(...missing.map((field) => ({ field, message: `${field} is required` })));
  if (problems.length > 0) throw badRequest(`the entity is not valid for class ${cls.key} (${cls.name})`, problems);
  if (fields.ikey !== undefined && allEntities(ctx.state).some((e) => e.ikey === fields.ikey)) {
    throw new HttpProblem(409, 'conflict', `an entity with key ${String(fields.ikey)} already exists`);
  }
  let ikey = fields.ikey as number | undefined;
  if (ikey === undefined) {
    ikey = ctx.state.nextKey;
    ctx.state.nextKey += 1;
  }
  const entity = withAllFields(ctx.state, cls, { ...fields, iclass: cls.key, ikey, iversion: 1 } as StoredEntity);
  ctx.state.entities.push(entity);
  recordChange(ctx, 'insert', null, entity);
  return json(201, entity);
}

function update(ctx: RouteContext, id: string, req: EmuRequest, within?: number[]) {
  const entity = findEntity(ctx.state, id, within);
  refuseLogWrites(ctx, findClass(ctx.state, entity.iclass));
  const objects = entityObjects(req);
  let next: StoredEntity = { ...entity };
  for (const object of objects) {
    const fields = { ...object };
    if (fields.ikey !== undefined && fields.ikey !== entity.ikey) {
      throw badRequest(
        `the body's ikey ${JSON.stringify(fields.ikey)} is not the key of entity ${entity.ikey}; an entity's key cannot change`,
      );
    }
    let cls = findClass(ctx.state, next.iclass);
    if (fields.iclass !== undefined && fields.iclass !== next.iclass) {
      const target = Number.isInteger(fields.iclass)
        ? ctx.state.classes.find((c) => c.key === fields.iclass)
        : undefined;
      if (!target || target.table === null || target.table !== cls.table) {
        throw badRequest(
          `entity ${entity.ikey} cannot change to class ${JSON.stringify(fields.iclass)}: an entity may only move to a class of the same table (${cls.table})`,
        );
      }
      cls = target;
    }
    delete fields.ikey;
    delete fields.iclass;
    const problems = versionProblems(fields);
    delete fields.iversion;
    problems.push(...fieldProblems(ctx.state, cls, fields));
    for (const f of requiredOf(ctx.state, cls)) {
      if (f in fields && fields[f] === null)
        problems.push({ field: f, message: `${f} is required and cannot be null` });
    }
    if (problems.length > 0) throw badRequest(`the update is not valid for class ${cls.key} (${cls.name})`, problems);
    next = withAllFields(ctx.state, cls, { ...next, ...fields, iclass: cls.key } as StoredEntity);
  }
  next.iversion = (typeof entity.iversion === 'number' ? entity.iversion : 0) + 1;
  const index = ctx.state.entities.indexOf(entity);
  ctx.state.entities[index] = next;
  recordChange(ctx, 'update', entity, next);
  return json(200, next);
}

function remove(ctx: RouteContext, id: string, within?: number[]) {
  const entity = findEntity(ctx.state, id, within);
  refuseLogWrites(ctx, findClass(ctx.state, entity.iclass));
  ctx.state.entities.splice(ctx.state.entities.indexOf(entity), 1);
  recordChange(ctx, 'delete', entity, null);
  return json(200, entity);
}

export function classesRoutes(router: Router, ctx: () => RouteContext): void {
  const key = (p: { classKey?: string }) => intParam(p.classKey ?? '', 'classKey');
  router
    .on('GET', `${BASE}/classes/{classKey}/schema`, (_req, p) => {
      const c = ctx();
      return json(200, classSchema(c.state, findClass(c.state, key(p))), 'application/schema+json');
    })
    .on('GET', `${BASE}/classes/{classKey}/children`, (_req, p) => {
      const c = ctx();
      return json(200, children(c.state, findClass(c.state, key(p)).key));
    })
    .on('GET', `${BASE}/classes/{classKey}/descendants`, (_req, p) => {
      const c = ctx();
      return json(200, descendants(c.state, findClass(c.state, key(p)).key));
    })
    .on('GET', `${BASE}/classes/{classKey}/entities`, (req, p) => json(200, list(ctx(), key(p), req.query)), {
      query: true,
    })
    .on('POST', `${BASE}/classes/{classKey}/entities`, (req, p) => create(ctx(), key(p), req))
    .on('GET', `${BASE}/classes/{classKey}/entities/{id}`, (_req, p) =>
      json(200, findEntity(ctx().state, p.id!, entityScope(ctx(), key(p)))),
    )
    .on(['POST', 'PATCH', 'PUT'], `${BASE}/classes/{classKey}/entities/{id}`, (req, p) =>
      update(ctx(), p.id!, req, entityScope(ctx(), key(p))),
    )
    .on('DELETE', `${BASE}/classes/{classKey}/entities/{id}`, (_req, p) =>
      remove(ctx(), p.id!, entityScope(ctx(), key(p))),
    )
    .on('GET', `${BASE}/entities/{id}`, (_req, p) => json(200, findEntity(ctx().state, p.id!)))
    .on(['POST', 'PATCH', 'PUT'], `${BASE}/entities/{id}`, (req, p) => update(ctx(), p.id!, req))
    .on('DELETE', `${BASE}/entities/{id}`, (_req, p) => remove(ctx(), p.id!));
}
