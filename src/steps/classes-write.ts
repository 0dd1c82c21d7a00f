// classes/create, classes/update, classes/delete: entity writes (POST, PATCH, DELETE).
import { CLASS } from './input-docs.ts';
import { z } from 'zod';
import { intKey } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';
import { entityUpdated } from './verify-entity.ts';
import { entityDeleted } from './verify-entity-deleted.ts';
import { entityCreated } from './verify-entity-created.ts';

const fields = (w: Wrap) => w(z.record(z.string(), z.unknown()));
const id = (w: Wrap) => w(z.union([z.number().int(), z.string().min(1)]));

const createInputs = (w: Wrap) => z.strictObject({ class: w(intKey), fields: fields(w) });
const updateInputs = (w: Wrap) => z.strictObject({ id: id(w), class: w(intKey).optional(), fields: fields(w) });
const deleteInputs = (w: Wrap) => z.strictObject({ id: id(w), class: w(intKey).optional() });

export const classesCreate = defineStep<z.infer<ReturnType<typeof createInputs>>>({
  uses: 'classes/create',
  summary: 'Create an entity',
  inputs: createInputs,
  inputDocs: { class: CLASS, fields: "The entity's fields: { iname: ..., ... }." },
  outputs: ['entity'],
  readOnly: false,
  unprovable: 'that the server accepts the fields (its own validation): only the write tells',
  needsServer: true,
  verify: entityCreated,
  async run(i, env) {
    const entity = await env.client().classes.create(i.class, i.fields, env.call);
    return { outputs: { entity }, result: entity, figures: `created entity ${entity.ikey} in class ${entity.iclass}` };
  },
});

export const classesUpdate = defineStep<z.infer<ReturnType<typeof updateInputs>>>({
  uses: 'classes/update',
  summary: 'Update an entity',
  inputs: updateInputs,
  inputDocs: {
    id: 'Identifier or key of the entity.',
    class: `${CLASS} Optional.`,
    fields: 'The fields to change; others stay as they are.',
  },
  outputs: ['entity'],
  readOnly: false,
  unprovable: 'that the server accepts the fields (its own validation): only the write tells',
  needsServer: true,
  verify: entityUpdated,
  async run(i, env) {
    const entity = await env.client().classes.update(i.id, i.fields, i.class, 'PATCH', env.call);
    return {
      outputs: { entity },
      result: entity,
      figures: `entity ${entity.ikey} now at version ${entity.iversion ?? '?'}`,
    };
  },
});

export const classesDelete = defineStep<z.infer<ReturnType<typeof deleteInputs>>>({
  uses: 'classes/delete',
  summary: 'Delete an entity',
  inputs: deleteInputs,
  inputDocs: { id: 'Identifier or key of the entity.', class: `${CLASS} Optional.` },
  outputs: ['entity'],
  readOnly: false,
  unprovable: 'that the entity may be deleted (references to it): only the delete tells',
  needsServer: true,
  verify: entityDeleted,
  async run(i, env) {
    const entity = await env.client().classes.delete(i.id, i.class, env.call);
    return { outputs: { entity }, result: entity, figures: `deleted entity ${i.id}` };
  },
});
