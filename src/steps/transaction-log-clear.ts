// transaction-log/clear: POST /api/devops/v1/transaction-log/clear.
import { z } from 'zod';
import { defineStep } from './types.ts';

export default defineStep<Record<string, never>>({
  uses: 'transaction-log/clear',
  summary: 'Clear the transaction log (iLog)',
  inputs: () => z.strictObject({}),
  inputDocs: {},
  outputs: ['status'],
  readOnly: false,
  unprovable: 'the scope system.clearTransactionLog of the user: only the clear itself is checked for it',
  needsServer: true,
  async run(_inputs, env) {
    const { status } = await env.client().devops.clearTransactionLog(env.call);
    return { outputs: { status }, figures: `HTTP ${status}` };
  },
});
