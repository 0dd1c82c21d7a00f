// replication/sync: POST replication/configs/{key}/sync, or replication/sync for every enabled one.
// HTTP 500 means at least one replication failed (enterprise-api.md 4.4): the step fails, always,
// whatever the result array says.
import { z } from 'zod';
import { intKey } from './inputs.ts';
import { defineStep, type Wrap } from './types.ts';

const inputs = (w: Wrap) => z.strictObject({ config: w(intKey).optional() });

export default defineStep<z.infer<ReturnType<typeof inputs>>>({
  uses: 'replication/sync',
  summary: 'Sync replication',
  inputs,
  inputDocs: { config: 'Key of the replication configuration; every enabled configuration when absent.' },
  outputs: ['results', 'succeeded', 'failed', 'inserts', 'updates', 'deletes'],
  readOnly: false,
  unprovable: 'that each target database accepts the replication: only the sync tells',
  needsServer: true,
  async run(i, env) {
    const outcome = await env.client().devops.sync(i.config, env.call);
    const sum = (k: 'numInserts' | 'numUpdates' | 'numDeletes') =>
      outcome.results.reduce((n, r) => n + (r.stats?.[k] ?? 0), 0);
    const outputs = {
      results: outcome.results,
      succeeded: outcome.succeeded,
      failed: outcome.failed,
      inserts: sum('numInserts'),
      updates: sum('numUpdates'),
      deletes: sum('numDeletes'),
    };
    const failedTargets = outcome.results
      .filter((r) => !r.success)
      .map((r) => `${r.targetDatabase} (${r.errorMessage || 'no message'})`);
    const inconsistent =
      outcome.status === 500 && failedTargets.length === 0
        ? `the server answered HTTP 500 (at least one replication failed), but its result array ${outcome.results.length === 0 ? 'is empty' : `says all ${outcome.results.length} succeeded`}`
        : undefined;
    return {
      outputs,
      result: outcome.results,
      figures: `${outcome.succeeded}/${outcome.results.length} targets${
        failedTargets.length > 0
          ? ` (failed: ${outcome.results
              .filter((r) => !r.success)
              .map((r) => r.targetDatabase)
              .join(', ')})`
          : ''
      }, inserts ${outputs.inserts}, updates ${outputs.updates}, deletes ${outputs.deletes}`,
      // The server's word that a replication failed (its documented 500, or a 200 saying so): refused.
      ...(failedTargets.length > 0
        ? { refused: true, failure: `replication failed for ${failedTargets.join(', ')}` }
        : {}),
      ...(inconsistent
        ? {
            failure: {
              code: 'REPLICATION_FAILED',
              message: inconsistent,
              hint: "the server's logs say which replication failed",
            },
          }
        : {}),
    };
  },
});
