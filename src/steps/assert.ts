// assert: fails unless `that` holds. `that` is a condition written in the file, bare or in one
// ${{ }}: the loader checks and compiles it, the step evaluates it. A value a step read from a
// server is data inside it, never part of the condition.
import { z } from 'zod';
import { Expression, truthy } from '../expr/index.ts';
import { defineStep, type Wrap } from './types.ts';

/**
 * `that`: the file holds a condition's text (or a literal); at run time, the compiled condition.
 * The JSON Schema shows what the file holds (pipeline/schema.ts).
 */
export const CONDITION_INPUT = z.union([
  z.boolean(),
  z.string(),
  z.number(),
  z.null(),
  z.custom<Expression>(
    (v) => v instanceof Expression,
    'a condition: an expression as text (bare or in ${{ }}), or true, false, a number or null',
  ),
]);

const inputs = (w: Wrap) =>
  z.strictObject({
    that: CONDITION_INPUT,
    message: w(z.string()).optional(),
  });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'assert',
  summary: 'Assert',
  inputs,
  inputDocs: {
    that: 'The condition: an expression, bare or in one ${{ }}, e.g. steps.sync.outputs.failed == 0.',
    message: 'What the failure says.',
  },
  outputs: [],
  readOnly: true,
  needsServer: false,
  conditions: ['that'],
  async run(i, env) {
    const value = i.that instanceof Expression ? env.evaluate(i.that) : i.that;
    const held = truthy(value);
    const shown = i.that instanceof Expression ? i.that.source : String(i.that);
    return {
      outputs: {},
      figures: held ? 'holds' : 'does not hold',
      ...(held ? {} : { failure: i.message ?? `assertion failed: ${shown}` }),
    };
  },
});
