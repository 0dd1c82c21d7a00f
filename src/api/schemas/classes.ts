// Classes area resources (enterprise-api.md 2.1 to 2.3).
import { z } from 'zod';
import { int, intList } from './common.ts';

/**
 * An entity of any class: its key and its class's key, and the class's own fields in lower case
 * (unset ones null), kept as they come. Only the users-and-groups classes are described field by
 * field (api 2.1); every other class defines its own, and may give a name those classes use
 * (istatus, iproduct) another type: so no field but the keys is checked here.
 */
export const Entity = z.lazy(() =>
  z.looseObject({
    iclass: int,
    ikey: int,
  }),
);
export type Entity = z.infer<typeof Entity>;

export const EntityList = z.array(Entity);

export const FieldSchema = z.lazy(() =>
  z.looseObject({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    items: z.looseObject({}).optional(),
    enum: z.array(z.unknown()).optional(),
  }),
);

/** `application/schema+json` of a class. */
export const ClassSchema = z.lazy(() =>
  z.looseObject({
    title: z.string(),
    type: z.string(),
    required: z.array(z.string()).optional(),
    properties: z.record(z.string(), FieldSchema),
  }),
);
export type ClassSchema = z.infer<typeof ClassSchema>;

export const ClassKeyList = intList;

/** Fields sent to create or update an entity: any field of the class. */
export type EntityFields = Record<string, unknown>;
