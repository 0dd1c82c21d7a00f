// DevOps area (enterprise-api.md 4.4): transaction-log clear, replication, system and vfs updates.
// None of the POSTs here is ever retried implicitly.
import { z } from 'zod';
import { parseBody, type Caller, type CallOptions, type CallSpec } from './call.ts';
import { statusError } from './status-error.ts';
import {
  ReplicationConfig,
  ReplicationResultList,
  UpdateResult,
  type ReplicationResult,
  type SystemUpdateOptions,
  type VfsUpdateOptions,
} from './schemas/index.ts';
import { CLEAR_TRANSACTION_LOG_PATH } from './scopes.ts';
import { API_BASE } from './areas.ts';
import { parseBoundedJson } from '../text/bounded-json.ts';
import { twiceNamed } from './duplicate-keys.ts';

const BASE = API_BASE.devops;
/** The replication configurations, a list built once. */
const ReplicationConfigList = z.array(ReplicationConfig);

/** The outcome of a sync: every target's result, failed ones included. */
export interface SyncOutcome {
  /** 200 when every replication succeeded, 500 when any failed. */
  status: 200 | 500;
  results: ReplicationResult[];
  succeeded: number;
  failed: number;
}

/** The calls of the area that steps make, as values the client sends. */
export const devopsCalls = {
  clearTransactionLog: (): CallSpec => ({ method: 'POST', path: CLEAR_TRANSACTION_LOG_PATH, statusOnly: true }),
  /** One configuration, or every enabled one when `configKey` is undefined. */
  sync: (configKey?: number): CallSpec =>
    configKey === undefined
      ? { method: 'POST', path: `${BASE}/replication/sync` }
      : {
          method: 'POST',
          path: `${BASE}/replication/configs/${configKey}/sync`,
          resource: `replication configuration ${configKey}`,
        },
  replicationConfigs: (): CallSpec => ({ method: 'GET', path: `${BASE}/replication/configs` }),
  updateSystem: (body: SystemUpdateOptions): CallSpec => ({
    method: 'POST',
    path: `${BASE}/update/system`,
    body: { json: body },
  }),
  updateVfs: (body: VfsUpdateOptions): CallSpec => ({
    method: 'POST',
    path: `${BASE}/update/vfs`,
    body: { json: body },
  }),
};

export class DevOpsApi {
  constructor(private readonly call: Caller) {}

  /** Empties iLog per the system's own log-cleanup configuration. Only the status is specified. */
  async clearTransactionLog(options?: CallOptions): Promise<{ status: number }> {
    const response = await this.call.status(devopsCalls.clearTransactionLog(), options);
    return { status: response.status };
  }

  replicationConfigs(options?: CallOptions): Promise<ReplicationConfig[]> {
    return this.call.json(devopsCalls.replicationConfigs(), ReplicationConfigList, options);
  }

  replicationConfig(key: number, options?: CallOptions): Promise<ReplicationConfig> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/replication/configs/${key}`, resource: `replication configuration ${key}` },
      ReplicationConfig,
      options,
    );
  }

  /**
   * Syncs one configuration, or every enabled one when `configKey` is undefined. A 500 that
   * carries the result array is a result (some targets failed), not an error.
   */
  async sync(configKey?: number, options?: CallOptions): Promise<SyncOutcome> {
    const spec = devopsCalls.sync(configKey);
    const response = await this.call.send(spec, options);
    if (response.status === 500) {
      const parsed = ReplicationResultList.safeParse(safeJson(response.text));
      if (!parsed.success) throw statusError(spec, response, this.call.transport);
      return outcome(500, parsed.data);
    }
    if (response.status < 200 || response.status > 299) throw statusError(spec, response, this.call.transport);
    return outcome(200, parseBody(spec, this.call.transport, response, ReplicationResultList));
  }

  updateSystem(body: SystemUpdateOptions, options?: CallOptions): Promise<z.infer<typeof UpdateResult>> {
    return this.call.json(devopsCalls.updateSystem(body), UpdateResult, options);
  }

  updateVfs(body: VfsUpdateOptions, options?: CallOptions): Promise<z.infer<typeof UpdateResult>> {
    return this.call.json(devopsCalls.updateVfs(body), UpdateResult, options);
  }
}

/** The value of a JSON text, or undefined when it is none or says two things (a key twice in one object). */
function safeJson(text: string): unknown {
  try {
    const value = parseBoundedJson(text);
    return twiceNamed(text, value) === undefined ? value : undefined;
  } catch {
    return undefined;
  }
}

function outcome(status: 200 | 500, results: ReplicationResult[]): SyncOutcome {
  const failed = results.filter((r) => !r.success).length;
  return { status, results, failed, succeeded: results.length - failed };
}
