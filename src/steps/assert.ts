// assert: fails unless `that` holds. `that` is an expression, bare or in ${{ }}.
import { z } from 'zod';
import { truthy } from '../expr/index.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) => z.strictObject({ that: z.union([z.boolean(), z.string(), z.number(), z.null()]), message: w(z.string()).optional() });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'assert',
  summary: 'Assert',
  inputs,
  outputs: [],
  readOnly: true,
  needsServer: false,
  plan: () => [],
  async run(i, env) {
    const value = typeof i.that === 'string' ? env.evaluate(i.that) : i.that;
    const held = truthy(value);
    return { outputs: {}, figures: held ? 'holds' : 'does not hold', ...(held ? {} : { failure: i.message ?? `assertion failed: ${String(i.that)}` }) };
  },
});
