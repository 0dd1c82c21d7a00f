// licensing/add: POST licenses with the code as text/plain.
import { z } from 'zod';
import { defineStep, type Wrap } from './types.ts';
import { licensesAdded } from './verify-licenses.ts';

const inputs = (w: Wrap) => z.strictObject({ code: w(z.string().min(1)) });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'licensing/add',
  summary: 'Add licenses',
  inputs,
  inputDocs: { code: 'The encrypted license code (from licensing/create). Masked everywhere.' },
  outputs: ['status'],
  readOnly: false,
  unprovable: 'that the license code is accepted: only adding it tells',
  secretInputs: ['code'],
  needsServer: true,
  verify: licensesAdded,
  async run(i, env) {
    env.secret(i.code);
    const { status } = await env.client().licensing.add(i.code, env.call);
    return { outputs: { status }, figures: `HTTP ${status}` };
  },
});
