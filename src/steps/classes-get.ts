// classes/get: GET entities/{id}, or classes/{class}/entities/{id}.
import { CLASS } from './input-docs.ts';
import { z } from 'zod';
import { intKey } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) =>
  z.strictObject({ id: w(z.union([z.number().int(), z.string().min(1)])), class: w(intKey).optional() });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'classes/get',
  summary: 'Get an entity',
  inputs,
  inputDocs: { id: 'Identifier or key of the entity.', class: `${CLASS} Optional: entities are found by id alone.` },
  outputs: ['entity'],
  readOnly: true,
  needsServer: true,
  async run(i, env) {
    const entity = await env.client().classes.get(i.id, i.class, env.call);
    return { outputs: { entity }, result: entity, figures: `entity ${entity.ikey} of class ${entity.iclass}` };
  },
});
