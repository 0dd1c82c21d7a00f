// System and vfs update routes (enterprise-api.md 4.4, 2.12 to 2.14). Bodies are validated as the
// spec requires (request-bodies.ts: 400 with details); a target that cannot be reached or authenticated, or files the
// source does not have, give a 200 result with success false, errors and a report.
import type { RouteContext } from '../context.ts';
import { badRequest, json, type EmuRequest } from '../http.ts';
import type { Router } from '../router.ts';
import { renderUpdateReport } from '../update-report.ts';
import { startEngine } from '../engine-start.ts';
import type { EngineRecord } from '../state.ts';
import { isOnline } from './monitoring.ts';
import { BASE, connect, emptyResult, failure, parse, versionInfo } from './update-requests.ts';

function systemUpdate(ctx: RouteContext, req: EmuRequest) {
  const body = parse('System', req);
  const { state } = ctx;
  const unknownProducts = (body.products ?? []).filter((k) => !state.products.some((p) => p.key === k));
  if (unknownProducts.length > 0) {
    throw badRequest(
      'the update options are not valid',
      unknownProducts.map((k) => ({ field: 'products', message: `product ${k} does not exist` })),
    );
  }
  const target = connect(ctx, body);
  if (!('db' in target)) return failure(ctx, 'System', body, target);
  const { db } = target;
  const before = { application: db.application.name, engine: db.engine, schema: db.schemaVersion };
  const result = emptyResult('System', body);
  const release = state.release;
  const pending = body.disableDatabaseSchemaUpdate ? [] : release.schemaVersions.filter((v) => v > db.schemaVersion);
  if (pending.length > 0) db.schemaVersion = pending[pending.length - 1]!;
  if (!body.disableDatabaseSchemaUpdate) db.application = { ...release.application };
  const engines = state.engines.filter((e) => e.mainDatabase === db.name);
  // The new release is installed on each Engine; an Engine runs, and reports, the version it was
  // started on: one not restarted (disableEngineRestart, or offline: it stopped reporting) keeps its
  // old version, and its monitoring data stays as it was, until it starts again (Emulator.restartEngine).
  const installed = (e: EngineRecord) => e.pendingVersion ?? e.version;
  const updatedEngines = body.disableEngineUpdate ? [] : engines.filter((e) => installed(e) !== release.engine);
  if (!body.disableEngineUpdate) db.engine = release.engine;
  for (const engine of updatedEngines) engine.pendingVersion = release.engine;
  const now = ctx.now();
  // Restarted: the online Engines on a version other than the one installed (an earlier update's too).
  const restarted =
    body.disableEngineUpdate || body.disableEngineRestart
      ? []
      : engines.filter((e) => e.pendingVersion !== undefined && isOnline(e, now));
  // Monitoring shows the Engines as they were until its next refresh (engine-view.ts).
  for (const engine of restarted) ctx.engines.changing(engine, now);
  for (const engine of restarted) startEngine(engine, now);
  const products = (
    body.products?.length ? state.products.filter((p) => body.products!.includes(p.key)) : state.products
  ).map((p) => ({ name: p.name, key: p.key }));
  result.success = true;
  result.versions = pending;
  result.products = products;
  result.targetDatabaseVersionInfo = versionInfo(db);
  result.stats = {
    numSourceEntries: release.schemaVersions.length,
    numInserts: pending.length,
    numUpdates: updatedEngines.length,
    numDeletes: 0,
    numTargetEntries: release.schemaVersions.filter((v) => v <= db.schemaVersion).length,
    operations: {
      'apply schema version': pending.length,
      'update engine': updatedEngines.length,
      'restart engine': restarted.length,
    },
  };
  if (pending.length === 0 && updatedEngines.length === 0)
    result.messages.push(`${db.name} is already at release ${release.application.name}`);
  else result.messages.push(`${db.name} updated from ${before.application} to ${db.application.name}`);
  if (body.ignoreSystemRequirements)
    result.warnings.push({
      code: 'system_requirements_not_checked',
      message: 'system requirements were not checked (ignoreSystemRequirements)',
    });
  if (body.disableEngineRestart && updatedEngines.length > 0) {
    result.warnings.push({
      code: 'engine_restart_pending',
      message: `${updatedEngines.length} Engine(s) run the old version until restarted`,
    });
  }
  result.report = renderUpdateReport({
    kind: 'System',
    database: db.name,
    server: db.server,
    success: true,
    trackingId: body.trackingId,
    messageComplement: body.messageComplement,
    sections: [
      {
        title: 'Versions',
        header: ['', 'Before', 'After'],
        rows: [
          ['Application', before.application, db.application.name],
          ['Engine', before.engine, db.engine],
          ['Schema version', before.schema, db.schemaVersion],
        ],
      },
      { title: 'Schema versions applied', header: ['Version'], rows: pending.map((v) => [v]) },
      {
        title: 'Engines',
        header: ['Engine', 'Host', 'Version', 'Restarted'],
        rows: engines.map((e) => [
          e.instanceId,
          String(e.hostName ?? ''),
          installed(e),
          restarted.includes(e) ? 'yes' : isOnline(e, now) ? 'no' : 'no (offline)',
        ]),
      },
      { title: 'Products', header: ['Key', 'Name'], rows: products.map((p) => [p.key, p.name]) },
      ...(result.warnings.length > 0
        ? [{ title: 'Warnings', lines: result.warnings.map((w) => `- ${w.message}`) }]
        : []),
    ],
  });
  return json(200, result);
}

function vfsUpdate(ctx: RouteContext, req: EmuRequest) {
  const startedAt = ctx.now();
  const body = parse('VFS', req);
  const badDirs = (body.directories ?? [])
    .map((d, i) => ({ d, i }))
    .filter(({ d }) => typeof d !== 'string' || !d.startsWith('/'));
  if (badDirs.length > 0) {
    throw badRequest(
      'the update options are not valid',
      badDirs.map(({ i }) => ({
        field: `directories[${i}]`,
        message: 'a directory is an absolute vfs path such as /reports',
      })),
    );
  }
  const { state } = ctx;
  const missing = (body.files ?? []).filter((k) => !state.release.vfsFiles.some((f) => f.key === k));
  if (missing.length > 0) {
    const message = `the source has no vfs file with key ${missing.join(', ')}`;
    return failure(ctx, 'VFS', body, { code: 'vfs_file_not_found', message }, startedAt);
  }
  const target = connect(ctx, body);
  if (!('db' in target)) return failure(ctx, 'VFS', body, target, startedAt);
  const { db } = target;
  const result = emptyResult('VFS', body);
  const dirs = (body.directories ?? []) as string[];
  const selected = state.release.vfsFiles.filter(
    (f) => body.files?.includes(f.key) || dirs.some((d) => f.path.startsWith(d.endsWith('/') ? d : `${d}/`)),
  );
  for (const d of dirs) {
    if (!selected.some((f) => f.path.startsWith(d.endsWith('/') ? d : `${d}/`))) {
      result.warnings.push({ code: 'empty_directory', message: `directory ${d} holds no vfs file in the source` });
    }
  }
  const rows: (string | number)[][] = [];
  const counts = { inserted: 0, updated: 0, unchanged: 0 };
  for (const file of selected) {
    const before = db.vfsFiles[String(file.key)];
    // The target gets the source's file (api 4.4: "updates or inserts vfs files on the target"): one at
    // another version, newer too, is updated to the source's; one already at the source's is unchanged.
    const op = before === undefined ? 'inserted' : before !== file.version ? 'updated' : 'unchanged';
    counts[op] += 1;
    db.vfsFiles[String(file.key)] = file.version;
    rows.push([file.key, file.path, before ?? '-', file.version, op]);
  }
  result.success = true;
  result.targetDatabaseVersionInfo = versionInfo(db);
  result.stats = {
    numSourceEntries: selected.length,
    numInserts: counts.inserted,
    numUpdates: counts.updated,
    numDeletes: 0,
    numTargetEntries: Object.keys(db.vfsFiles).length,
    operations: {
      'insert vfs file': counts.inserted,
      'update vfs file': counts.updated,
      'unchanged vfs file': counts.unchanged,
    },
    ...{ startedAt, finishedAt: ctx.now() },
  } as typeof result.stats;
  const summary = `${selected.length} vfs file(s) on ${db.name}: ${counts.inserted} inserted, ${counts.updated} updated, ${counts.unchanged} unchanged`;
  result.messages.push(summary);
  result.report = renderUpdateReport({
    kind: 'VFS',
    database: db.name,
    server: db.server,
    success: true,
    trackingId: body.trackingId,
    messageComplement: body.messageComplement,
    sections: [
      { title: 'Files', header: ['Key', 'Path', 'Before', 'After', 'Operation'], rows },
      ...(result.warnings.length > 0
        ? [{ title: 'Warnings', lines: result.warnings.map((w) => `- ${w.message}`) }]
        : []),
    ],
  });
  return json(200, { ...result, summary });
}

export function updateRoutes(router: Router, ctx: () => RouteContext): void {
  router
    .on('POST', `${BASE}/system`, (req) => systemUpdate(ctx(), req))
    .on('POST', `${BASE}/vfs`, (req) => vfsUpdate(ctx(), req));
}
