// The request bodies of the API as the emulator reads them, written from the contract
// (enterprise-api.md 2.12, 2.13, 4.2, 5.3), not from the client's schemas: the field tables, then
// the rules the tables state in words. What the contract leaves open is chosen in docs/emulator.md.
import { badRequest, type ProblemDetail } from './http.ts';
import {
  anything,
  arrayOf,
  boolean,
  date,
  integer,
  number,
  object,
  oneOf,
  optional,
  required,
  string,
  type Check,
  type Fields,
  wrong,
} from './body-check.ts';

// ---- SystemUpdateOptions (2.12) and VfsUpdateOptions (2.13) ----

/** 2.12's connection and option fields, in its order; 2.13 takes those of them it lists. */
const UPDATE_FIELDS = {
  targetDBName: required(string(true)),
  targetServer: required(string(true)),
  targetAuthToken: optional(string()),
  targetUserName: optional(string()),
  targetPassword: optional(string()),
  sourceServer: optional(string()),
  sourceDBName: optional(string()),
  sourceUserName: optional(string()),
  sourcePassword: optional(string()),
  sourceAuthToken: optional(string()),
  recipients: optional(string()),
  messageComplement: optional(string()),
  trackingId: optional(string()),
  updateType: optional(integer),
  products: optional(arrayOf(integer)),
  allowExclusiveProducts: optional(boolean),
  ignoreOtherEngineServers: optional(boolean),
  ignoreSystemRequirements: optional(boolean),
  disableEngineUpdate: optional(boolean),
  disableDatabaseSchemaUpdate: optional(boolean),
  disableEngineRestart: optional(boolean),
  preserveUnlicensedProducts: optional(boolean),
  // "unknown; null in the samples": any value.
  onlineIndexDrop: optional(anything),
  onlineIndexCreation: optional(anything),
} as const;

type UpdateField = keyof typeof UPDATE_FIELDS;

/** 2.13: "Same connection fields as 2.12 (...)", the list as it gives it. */
const VFS_FROM_SYSTEM: readonly UpdateField[] = [
  'targetDBName',
  'targetServer',
  'targetAuthToken',
  'targetUserName',
  'targetPassword',
  'sourceServer',
  'sourceDBName',
  'sourceUserName',
  'sourcePassword',
  'sourceAuthToken',
  'recipients',
  'messageComplement',
  'trackingId',
  'updateType',
  'ignoreOtherEngineServers',
  'disableDatabaseSchemaUpdate',
  'disableEngineRestart',
  'onlineIndexDrop',
  'onlineIndexCreation',
];

/** The fields of each body, in the contract's order (the result's `options` echoes them so). */
export const SYSTEM_UPDATE_FIELDS: Fields = UPDATE_FIELDS;
export const VFS_UPDATE_FIELDS: Fields = {
  ...Object.fromEntries(VFS_FROM_SYSTEM.map((f) => [f, UPDATE_FIELDS[f]])),
  files: optional(arrayOf(integer)),
  // Element shape "not shown": any array. Which directories exist is the emulator's state (updates.ts).
  directories: optional(arrayOf(anything)),
};

/** The boolean options of a body ("Sample results show false"). */
export const flagsOf = (fields: Fields): string[] => Object.keys(fields).filter((f) => fields[f]!.check === boolean);

/** The fields that carry credentials (5.3), echoed as empty strings (2.14). */
export const CREDENTIAL_FIELDS = [
  'targetAuthToken',
  'targetUserName',
  'targetPassword',
  'sourceUserName',
  'sourcePassword',
  'sourceAuthToken',
] as const;

/** A field sent with a value: present and not "" (2.12: "must both be filled"). */
const filled = (body: Record<string, unknown>, key: string) => body[key] !== undefined && body[key] !== '';

/**
 * 2.12 and 5.3: "If absent, targetUserName and targetPassword must both be filled"; "For the
 * target, the token takes priority; without it both user name and password are required". The
 * source's credentials are optional ("and optionally source"), so no rule holds for them here.
 */
function targetCredentials(body: Record<string, unknown>): ProblemDetail[] {
  if (filled(body, 'targetAuthToken')) return [];
  const user = filled(body, 'targetUserName');
  const password = filled(body, 'targetPassword');
  if (user && password) return [];
  const field = user ? 'targetPassword' : password ? 'targetUserName' : 'targetAuthToken';
  return [{ field, message: `${field}: the target needs targetAuthToken, or both targetUserName and targetPassword` }];
}

/**
 * 2.13: "At least one of files or directories is required". An empty list names nothing to
 * update; it is refused too, so a client that sends one by mistake learns it here (the contract
 * does not say the server takes it). A list of the wrong type is told as that alone.
 */
function filesOrDirectories(body: Record<string, unknown>): ProblemDetail[] {
  const given = ['files', 'directories'].filter((k) => body[k] !== undefined);
  if (given.some((k) => !Array.isArray(body[k]))) return [];
  if (given.some((k) => (body[k] as unknown[]).length > 0)) return [];
  return [{ field: 'files', message: 'files: at least one of files or directories is required' }];
}

export const systemUpdateBody: Check = object(SYSTEM_UPDATE_FIELDS, targetCredentials);
export const vfsUpdateBody: Check = object(VFS_UPDATE_FIELDS, targetCredentials, filesOrDirectories);

// ---- Body of POST licenses/create (4.2, with 2.4) ----

/** 2.4's license types, and the codes "accepted on creation". */
export const LICENSE_TYPE_BY_CODE: Readonly<Record<string, string>> = {
  C: 'connection',
  P: 'processor',
  U: 'nominalUser',
  S: 'simultaneousUser',
  X: 'custom',
};
const LICENSE_TYPES = Object.values(LICENSE_TYPE_BY_CODE);

/** The type a create item names ("values listed in 2.4 or their codes"), or undefined. */
export function licenseType(value: string): string | undefined {
  return LICENSE_TYPES.includes(value)
    ? value
    : Object.hasOwn(LICENSE_TYPE_BY_CODE, value)
      ? LICENSE_TYPE_BY_CODE[value]
      : undefined;
}

/**
 * 4.2 calls the keys "number"; they are keys of 2.4's License (productKey, licenserKey,
 * extensions: integers) and of 2.5's Product and 2.6's Extension (key: integer), so integers.
 */
const licenseItem = object({
  productKey: required(integer),
  quantity: required(number),
  type: required(
    oneOf(
      (t) => licenseType(t) !== undefined,
      `must be one of ${LICENSE_TYPES.join(', ')} or a code ${Object.keys(LICENSE_TYPE_BY_CODE).join(', ')}`,
    ),
  ),
  extensions: optional(arrayOf(integer)),
});

/** "Optional; when empty the most current licensing version is used": a number, or empty (null or ""). */
const versionOrEmpty: Check = (v, at) =>
  v === null || v === '' || number(v, at).length === 0 ? [] : wrong(at, 'number or empty (null or "")', v);

export const licenseCreateBody: Check = object({
  licenserKey: optional(integer),
  licenseVersion: optional(versionOrEmpty),
  licenseeId: required(string(true)),
  licenseeName: required(string(true)),
  expiration: required(date),
  // "Required; at least 1 item" (and 8.4).
  licenses: required(arrayOf(licenseItem, 1)),
});

// ---- The bodies as the routes take them ----

export interface UpdateBody {
  targetDBName: string;
  targetServer: string;
  targetAuthToken?: string;
  targetUserName?: string;
  targetPassword?: string;
  sourceServer?: string;
  sourceDBName?: string;
  sourceUserName?: string;
  sourcePassword?: string;
  sourceAuthToken?: string;
  messageComplement?: string;
  trackingId?: string;
  products?: number[];
  disableDatabaseSchemaUpdate?: boolean;
  disableEngineUpdate?: boolean;
  disableEngineRestart?: boolean;
  ignoreSystemRequirements?: boolean;
  files?: number[];
  directories?: unknown[];
  [option: string]: unknown;
}

export interface LicenseCreateBody {
  licenserKey?: number;
  licenseVersion?: number | null | '';
  licenseeId: string;
  licenseeName: string;
  expiration: string;
  licenses: { productKey: number; quantity: number; type: string; extensions?: number[] }[];
}

/** `body` as a T when `check` finds no problem; else a 400 with `message` and a detail per problem. */
export function accept<T>(check: Check, body: unknown, message: string): T {
  const problems = check(body, '');
  if (problems.length > 0) throw badRequest(message, problems);
  return body as T;
}
