// classes/query: GET classes/{class}/entities?field=value (entities of child classes included).
import { CLASS } from './input-docs.ts';
import { z } from 'zod';
import { intKey } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) =>
  z.strictObject({
    class: w(intKey),
    where: w(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))).optional(),
  });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'classes/query',
  summary: 'Query entities',
  inputs,
  inputDocs: { class: CLASS, where: 'Equality filters: { field: value } (entities of child classes included).' },
  outputs: ['entities', 'count'],
  readOnly: true,
  needsServer: true,
  async run(i, env) {
    const entities = await env.client().classes.list(i.class, i.where ?? {}, env.call);
    return {
      outputs: { entities, count: entities.length },
      result: entities,
      figures: `${entities.length} entit${entities.length === 1 ? 'y' : 'ies'}`,
    };
  },
});
