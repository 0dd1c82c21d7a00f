// transaction-log/clear: POST /api/devops/v1/transaction-log/clear.
import { z } from 'zod';
import { CLEAR_TRANSACTION_LOG_PATH } from '../api/scopes.ts';
import { defineStep } from './types.ts';

export default defineStep<Record<string, never>>({
  uses: 'transaction-log/clear',
  summary: 'Clear the transaction log (iLog)',
  inputs: () => z.strictObject({}),
  outputs: ['status'],
  readOnly: false,
  needsServer: true,
  plan: () => [{ method: 'POST', path: CLEAR_TRANSACTION_LOG_PATH }],
  async run(_inputs, env) {
    const { status } = await env.client().devops.clearTransactionLog(env.call);
    return { outputs: { status }, figures: `HTTP ${status}` };
  },
});
