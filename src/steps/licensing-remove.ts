// licensing/remove: DELETE licenses/{key}; 204 (already without license) is a success.
import { z } from 'zod';
import { intKey } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';
import { licenseRemoved } from './verify-licenses.ts';

const inputs = (w: Wrap) => z.strictObject({ key: w(intKey) });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'licensing/remove',
  summary: 'Remove a license',
  inputs,
  inputDocs: { key: 'Key of the product whose license is removed.' },
  outputs: ['status'],
  readOnly: false,
  unprovable: 'that the license may be removed: only removing it tells',
  needsServer: true,
  verify: licenseRemoved,
  async run(i, env) {
    const { status } = await env.client().licensing.remove(i.key, env.call);
    return { outputs: { status }, figures: status === 204 ? 'already without license (204)' : 'removed (200)' };
  },
});
