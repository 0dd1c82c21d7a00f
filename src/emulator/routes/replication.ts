// Replication routes (enterprise-api.md 4.4): configurations, and syncs that move the source's
// changes of positive-key records to each target database with true counts. Any failed target
// makes the answer a 500 that still carries every result.
import type { RouteContext } from '../context.ts';
import { intParam, json, notFound } from '../http.ts';
import type { Router } from '../router.ts';
import type { EmulatorState, StoredEntity } from '../state.ts';
import { API_BASE } from '../../api/areas.ts';

const BASE = `${API_BASE.devops}/replication`;

type Config = EmulatorState['replication']['configs'][number];

function zeroStats(numTargetEntries = 0) {
  return { numInserts: 0, numUpdates: 0, numDeletes: 0, numTransactionLogs: 0, numTargetEntries };
}

function replicateTo(ctx: RouteContext, config: Config, target: { name: string; key: number }) {
  const { state } = ctx;
  const base = { targetDatabase: target.name, sourceDatabase: state.source.database, configName: config.name };
  const db = state.databases.find((d) => d.key === target.key);
  if (!db) {
    return {
      ...base,
      success: false,
      errorMessage: `target database ${target.name} (key ${target.key}) does not exist`,
      executionTime: 0,
      startVersion: 0,
      endVersion: 0,
      updateVersions: [],
      stats: zeroStats(),
    };
  }
  const startVersion = db.replicatedVersion;
  if (db.failReplication) {
    return {
      ...base,
      success: false,
      errorMessage: db.failReplication,
      executionTime: 5,
      startVersion,
      endVersion: startVersion,
      updateVersions: [],
      stats: zeroStats(db.entities.length),
    };
  }
  const entries = state.journal.filter((j) => j.version > startVersion && j.ikey > 0);
  const stats = zeroStats();
  stats.numTransactionLogs = entries.length;
  for (const ikey of new Set(entries.map((j) => j.ikey))) {
    const source = state.entities.find((e) => e.ikey === ikey);
    const index = db.entities.findIndex((e) => e.ikey === ikey);
    if (!source) {
      if (index >= 0) {
        db.entities.splice(index, 1);
        stats.numDeletes += 1;
      }
    } else if (index < 0) {
      db.entities.push({ ...source } as StoredEntity);
      stats.numInserts += 1;
    } else if (JSON.stringify(db.entities[index]) !== JSON.stringify(source)) {
      db.entities[index] = { ...source } as StoredEntity;
      stats.numUpdates += 1;
    }
  }
  db.replicatedVersion = state.dataVersion;
  stats.numTargetEntries = db.entities.length;
  const updateVersions = [...new Set(entries.map((j) => j.version))];
  return {
    ...base,
    success: true,
    errorMessage: '',
    executionTime: 10 * (1 + entries.length),
    startVersion,
    endVersion: state.dataVersion,
    updateVersions,
    stats,
  };
}

function sync(ctx: RouteContext, configs: Config[]) {
  const results = configs.flatMap((config) => config.databases.map((target) => replicateTo(ctx, config, target)));
  return json(results.every((r) => r.success) ? 200 : 500, results);
}

function config(ctx: RouteContext, key: number): Config {
  const found = ctx.state.replication.configs.find((c) => c.key === key);
  if (!found) throw notFound(`replication configuration ${key} does not exist`);
  return found;
}

export function replicationRoutes(router: Router, ctx: () => RouteContext): void {
  const key = (p: { key?: string }) => intParam(p.key ?? '', 'key');
  router
    .on('GET', `${BASE}/configs`, () => json(200, ctx().state.replication.configs))
    .on('GET', `${BASE}/configs/{key}`, (_req, p) => json(200, config(ctx(), key(p))))
    // An explicit sync runs the configuration even when it is disabled; the global sync skips those.
    .on('POST', `${BASE}/configs/{key}/sync`, (_req, p) => sync(ctx(), [config(ctx(), key(p))]), { body: false })
    .on(
      'POST',
      `${BASE}/sync`,
      () =>
        sync(
          ctx(),
          ctx().state.replication.configs.filter((c) => c.enabled),
        ),
      { body: false },
    );
}
