// Classes area (enterprise-api.md 4.1): hierarchy, schemas and entities.
import { z } from 'zod';
import { parseBody, type Caller, type CallOptions, type CallSpec } from './call.ts';
import { ClassKeyList, ClassSchema, Entity, EntityList, type EntityFields } from './schemas/index.ts';
import { API_BASE } from './areas.ts';

const BASE = API_BASE.classes;
const seg = (v: string | number) => encodeURIComponent(String(v));

export type EntityId = string | number;
export type WriteMethod = 'POST' | 'PATCH' | 'PUT';

/** The calls of the area that steps make, as values the client sends. */
export const classesCalls = {
  /** Entities of the class and of its child classes; `where` holds equality filters. */
  list: (classKey: number, where: Record<string, string | number | boolean> = {}): CallSpec => ({
    method: 'GET',
    path: `${BASE}/classes/${seg(classKey)}/entities`,
    query: where,
    resource: `class ${classKey}`,
  }),
  get: (id: EntityId, classKey?: number): CallSpec => ({
    method: 'GET',
    path: entityPath(id, classKey),
    resource: entityName(id, classKey),
  }),
  /** The body is an array holding one entity object, as the samples send. */
  create: (classKey: number, fields: EntityFields): CallSpec => ({
    method: 'POST',
    path: `${BASE}/classes/${seg(classKey)}/entities`,
    body: { json: [fields] },
    resource: `class ${classKey}`,
  }),
  update: (id: EntityId, fields: EntityFields, classKey?: number, method: WriteMethod = 'PATCH'): CallSpec => ({
    method,
    path: entityPath(id, classKey),
    body: { json: [fields] },
    resource: entityName(id, classKey),
  }),
  delete: (id: EntityId, classKey?: number): CallSpec => ({
    method: 'DELETE',
    path: entityPath(id, classKey),
    resource: entityName(id, classKey),
  }),
};

export class ClassesApi {
  constructor(private readonly call: Caller) {}

  schema(classKey: number, options?: CallOptions): Promise<ClassSchema> {
    return this.call.json(
      {
        method: 'GET',
        path: `${BASE}/classes/${seg(classKey)}/schema`,
        accept: 'application/schema+json',
        resource: `class ${classKey}`,
      },
      ClassSchema,
      options,
    );
  }

  children(classKey: number, options?: CallOptions): Promise<number[]> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/classes/${seg(classKey)}/children`, resource: `class ${classKey}` },
      ClassKeyList,
      options,
    );
  }

  descendants(classKey: number, options?: CallOptions): Promise<number[]> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/classes/${seg(classKey)}/descendants`, resource: `class ${classKey}` },
      ClassKeyList,
      options,
    );
  }

  /** Entities of the class and of its child classes; `where` holds equality filters. */
  list(
    classKey: number,
    where: Record<string, string | number | boolean> = {},
    options?: CallOptions,
  ): Promise<Entity[]> {
    return this.call.json(classesCalls.list(classKey, where), EntityList, options);
  }

  /** One entity, by its id alone (the stable route) or within a class. */
  get(id: EntityId, classKey?: number, options?: CallOptions): Promise<Entity> {
    return this.call.json(classesCalls.get(id, classKey), Entity, options);
  }

  /** Creates an entity; the body is an array holding one entity object, as the samples send. */
  async create(classKey: number, fields: EntityFields, options?: CallOptions): Promise<Entity> {
    return this.call.json(classesCalls.create(classKey, fields), Entity, options);
  }

  /** Updates only the given fields (POST, PATCH and PUT are equivalent partial updates). */
  update(
    id: EntityId,
    fields: EntityFields,
    classKey?: number,
    method: WriteMethod = 'PATCH',
    options?: CallOptions,
  ): Promise<Entity> {
    return this.call.json(classesCalls.update(id, fields, classKey, method), Entity, options);
  }

  /** Deletes an entity; the body of the 200 is not specified and returned as it came. */
  async delete(id: EntityId, classKey?: number, options?: CallOptions): Promise<unknown> {
    const spec = classesCalls.delete(id, classKey);
    const response = await this.call.ok(spec, options);
    if (response.text === '') return null;
    return parseBody(spec, this.call.transport, response, z.unknown());
  }
}

function entityPath(id: EntityId, classKey?: number): string {
  return classKey === undefined
    ? `${BASE}/entities/${seg(id)}`
    : `${BASE}/classes/${seg(classKey)}/entities/${seg(id)}`;
}

function entityName(id: EntityId, classKey?: number): string {
  return classKey === undefined ? `entity ${id}` : `entity ${id} of class ${classKey}`;
}
