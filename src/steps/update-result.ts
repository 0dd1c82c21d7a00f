// The outputs, figures and failure of an update result (system and vfs).
import type { z } from 'zod';
import type { UpdateResult } from '../api/schemas/devops.ts';
import type { StepOutcome } from './types.ts';

type Result = z.infer<typeof UpdateResult>;

/** A server's error or warning item as a step records it: its message, or the item as JSON. */
export function describeItem(item: unknown): string {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object' && 'message' in item && typeof item.message === 'string') return item.message;
  return JSON.stringify(item);
}

export function updateOutcome(result: Result, extra: Record<string, unknown> = {}): StepOutcome {
  const info = result.targetDatabaseVersionInfo;
  const outputs: Record<string, unknown> = {
    success: result.success,
    versions: result.versions ?? [],
    report: result.report ?? '',
    inserts: result.stats?.numInserts ?? 0,
    updates: result.stats?.numUpdates ?? 0,
    deletes: result.stats?.numDeletes ?? 0,
    'client-version': info?.client.name ?? '',
    'server-version': info?.server.name ?? '',
    ...extra,
  };
  const versions = result.versions ?? [];
  // A failed update changed nothing worth counting: its figures say so instead of zeros.
  const figures = result.success
    ? [
        `inserts ${outputs.inserts}, updates ${outputs.updates}, deletes ${outputs.deletes}`,
        versions.length > 0 ? `versions ${versions[0]}..${versions[versions.length - 1]}` : '',
        info ? `client ${info.client.name}, server ${info.server.name}` : '',
      ]
        .filter(Boolean)
        .join(', ')
    : 'the server reported success: false';
  const errors = (result.errors ?? []).map(describeItem);
  return {
    outputs,
    result,
    figures,
    warnings: (result.warnings ?? []).map(describeItem),
    ...(result.success
      ? {}
      : {
          // The server's own word that the update failed: a retry may send it again.
          refused: true,
          failure: {
            code: 'STEP_FAILED',
            message: `the server reported success: false${errors.length ? `: ${errors.join('; ')}` : ''}`,
            hint: "check the target's server and database (reachable from the API server?) and its token, or username and password; the update report in the summary says what the server did",
          },
        }),
  };
}
