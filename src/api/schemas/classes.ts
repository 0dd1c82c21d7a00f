// Classes area resources (enterprise-api.md 2.1 to 2.3).
import { z } from 'zod';
import { int, intList } from './common.ts';

const nullableString = z.string().nullable().optional();
const nullableInt = z.int().nullable().optional();

/** An entity: class fields in lower case; unset fields are null; unknown fields are kept. */
export const Entity = z.lazy(() =>
  z.looseObject({
    iclass: int,
    ikey: int,
    iname: nullableString,
    ifullname: nullableString,
    iversion: nullableInt,
    istatus: nullableInt,
    ilastpasswdchg: nullableString,
    igroups: intList.nullable().optional(),
    isecuritypolicy: nullableInt,
    iemailaddress: nullableString,
    ismtpserver: nullableInt,
    ichangeablelicenses: nullableString,
    iissuablelicenses: nullableString,
    ihomeprocess: nullableInt,
    ishortcuts: intList.nullable().optional(),
    inavtreevisibilitymode: nullableInt,
    iinformedfields: nullableString,
    iproduct: nullableString,
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
