// What both update routes share: the body parsed as the spec requires, the target reached and
// authenticated, the options echoed without credentials, and the empty and failed result shapes
// (enterprise-api.md 4.4, 2.12 to 2.14).
import type { RouteContext } from '../context.ts';
import { json, jsonBody, type EmuRequest } from '../http.ts';
import {
  accept,
  CREDENTIAL_FIELDS,
  flagsOf,
  SYSTEM_UPDATE_FIELDS,
  systemUpdateBody,
  VFS_UPDATE_FIELDS,
  vfsUpdateBody,
  type UpdateBody,
} from '../request-bodies.ts';
import type { TargetDatabase } from '../state.ts';
import { renderUpdateReport, type ReportInput } from '../update-report.ts';
import { API_BASE } from '../../api/areas.ts';

export const BASE = `${API_BASE.devops}/update`;

export type Body = UpdateBody;
export type Kind = ReportInput['kind'];

/**
 * Every option of the kind's body (api 2.12, 2.13) at its default as the samples show it: the
 * booleans false, the credential fields empty strings, onlineIndexDrop and onlineIndexCreation
 * null. The other defaults are not shown: null, the value of a field not given.
 */
function defaults(kind: Kind): Record<string, unknown> {
  const fields = kind === 'System' ? SYSTEM_UPDATE_FIELDS : VFS_UPDATE_FIELDS;
  const credentials: readonly string[] = CREDENTIAL_FIELDS;
  const flags = flagsOf(fields);
  return Object.fromEntries(
    Object.keys(fields).map((f) => [f, credentials.includes(f) ? '' : flags.includes(f) ? false : null]),
  );
}

/** The options as the result echoes them (api 2.14): every option of the kind, credential fields as empty strings. */
export function echoOptions(kind: Kind, body: Record<string, unknown>) {
  const options: Record<string, unknown> = { ...defaults(kind), ...body };
  for (const field of CREDENTIAL_FIELDS) options[field] = '';
  return options;
}

export function versionInfo(db: TargetDatabase) {
  const [major = 0, minor = 0] = db.engine.split('.').map(Number);
  return { client: { ...db.application }, server: { major, minor, name: db.engine } };
}

export function emptyResult(kind: Kind, body: Record<string, unknown>) {
  return {
    options: echoOptions(kind, body),
    versions: [] as number[],
    report: '',
    success: false,
    stats: {
      numSourceEntries: 0,
      numInserts: 0,
      numUpdates: 0,
      numDeletes: 0,
      numTargetEntries: 0,
      operations: {} as Record<string, number>,
    },
    targetDatabaseVersionInfo: null as ReturnType<typeof versionInfo> | null,
    orphanRecords: [],
    products: [] as { name: string; key: number }[],
    schemaChanges: [],
    releaseNotes: [],
    postUpdateScripts: [],
    permissionChanges: [],
    duplicateNameClasses: [],
    errors: [] as { code: string; message: string }[],
    messages: [] as string[],
    ddlStatements: [],
    warnings: [] as { code: string; message: string }[],
  };
}

/**
 * A result with success false. A vfs result also has its summary and, in its stats, when it
 * started (`startedAt`, the request's arrival) and finished (now), as a succeeded one has (api 2.14).
 */
export function failure(
  ctx: RouteContext,
  kind: Kind,
  body: Body,
  failed: { code: string; message: string },
  startedAt = ctx.now(),
) {
  const result = emptyResult(kind, body);
  result.errors.push(failed);
  result.report = renderUpdateReport({
    kind,
    database: body.targetDBName,
    server: body.targetServer,
    success: false,
    trackingId: body.trackingId,
    sections: [{ title: 'Errors', lines: [`- ${failed.message}`] }],
  });
  if (kind === 'System') return json(200, result);
  const stats = { ...result.stats, startedAt, finishedAt: ctx.now() };
  return json(200, { ...result, stats, summary: `${kind} update failed: ${failed.message}` });
}

/** The target database, authenticated as the body says (the token wins over user and password). */
export function connect(ctx: RouteContext, body: Body): { db: TargetDatabase } | { code: string; message: string } {
  const { state } = ctx;
  // Each source field is optional (api 2.12); a part not named is that of the database the API runs on, the source when none is given.
  const sourceServer = body.sourceServer || state.source.server;
  const sourceDBName = body.sourceDBName || state.source.database;
  if (sourceServer !== state.source.server || sourceDBName !== state.source.database) {
    return {
      code: 'source_unreachable',
      message: `source database ${sourceDBName} on ${sourceServer} cannot be reached`,
    };
  }
  // Source credentials are optional (api 5.3: "and optionally source"); when given, checked as the target's are, the token first.
  if (body.sourceAuthToken || body.sourceUserName || body.sourcePassword) {
    const { source } = state;
    const ok = body.sourceAuthToken
      ? source.tokens.includes(body.sourceAuthToken)
      : source.users.some((u) => u.name === body.sourceUserName && u.password === body.sourcePassword);
    if (!ok)
      return {
        code: 'source_authentication_failed',
        message: `authentication to ${source.database} on ${source.server} failed: ${body.sourceAuthToken ? 'the token was refused' : 'wrong user name or password'}`,
      };
  }
  const db = state.databases.find((d) => d.server === body.targetServer && d.name === body.targetDBName);
  if (!db)
    return {
      code: 'target_unreachable',
      message: `target database ${body.targetDBName} on ${body.targetServer} cannot be reached`,
    };
  const ok = body.targetAuthToken
    ? db.tokens.includes(body.targetAuthToken)
    : db.users.some((u) => u.name === body.targetUserName && u.password === body.targetPassword);
  if (!ok) {
    return {
      code: 'target_authentication_failed',
      message: `authentication to ${body.targetDBName} on ${body.targetServer} failed: ${body.targetAuthToken ? 'the token was refused' : 'wrong user name or password'}`,
    };
  }
  return { db };
}

/** The body of an update of `kind`, or a 400 naming each problem (request-bodies.ts). */
export function parse(kind: Kind, req: EmuRequest): Body {
  return accept<Body>(
    kind === 'System' ? systemUpdateBody : vfsUpdateBody,
    jsonBody(req),
    'the update options are not valid',
  );
}
