// DevOps area resources (enterprise-api.md 2.10 to 2.14): replication and update bodies and results.
import { z } from 'zod';
import { int, intList, timestamp } from './common.ts';

export const ReplicationConfig = z.lazy(() =>
  z.looseObject({
    key: int,
    name: z.string(),
    enabled: z.boolean(),
    databases: z.array(z.looseObject({ name: z.string(), key: int })).optional(),
  }),
);
export type ReplicationConfig = z.infer<typeof ReplicationConfig>;

const count = int.optional();

export const ReplicationResult = z.lazy(() =>
  z.looseObject({
    targetDatabase: z.string(),
    sourceDatabase: z.string().optional(),
    configName: z.string().optional(),
    errorMessage: z.string().nullable().optional(),
    success: z.boolean(),
    executionTime: count,
    startVersion: count,
    endVersion: count,
    updateVersions: intList.optional(),
    stats: z
      .looseObject({
        numInserts: count,
        numUpdates: count,
        numDeletes: count,
        numTransactionLogs: count,
        numTargetEntries: count,
      })
      .optional(),
  }),
);
export type ReplicationResult = z.infer<typeof ReplicationResult>;
export const ReplicationResultList = z.array(ReplicationResult);

// ---- Update request bodies (2.12, 2.13) ----

/** Connection and option fields common to system and vfs updates. */
const commonUpdateFields = () => ({
  targetDBName: z.string().min(1),
  targetServer: z.string().min(1),
  targetAuthToken: z.string().optional(),
  targetUserName: z.string().optional(),
  targetPassword: z.string().optional(),
  sourceServer: z.string().optional(),
  sourceDBName: z.string().optional(),
  sourceUserName: z.string().optional(),
  sourcePassword: z.string().optional(),
  sourceAuthToken: z.string().optional(),
  recipients: z.string().optional(),
  messageComplement: z.string().optional(),
  trackingId: z.string().optional(),
  updateType: z.int().optional(),
  ignoreOtherEngineServers: z.boolean().optional(),
  disableDatabaseSchemaUpdate: z.boolean().optional(),
  disableEngineRestart: z.boolean().optional(),
  // Types not shown; null in the samples.
  onlineIndexDrop: z.unknown().optional(),
  onlineIndexCreation: z.unknown().optional(),
});

/** The boolean flags of SystemUpdateOptions, in API spelling. */
export const SYSTEM_UPDATE_FLAGS = [
  'allowExclusiveProducts',
  'ignoreOtherEngineServers',
  'ignoreSystemRequirements',
  'disableEngineUpdate',
  'disableDatabaseSchemaUpdate',
  'disableEngineRestart',
  'preserveUnlicensedProducts',
] as const;

/** The boolean flags of VfsUpdateOptions, in API spelling. */
export const VFS_UPDATE_FLAGS = [
  'ignoreOtherEngineServers',
  'disableDatabaseSchemaUpdate',
  'disableEngineRestart',
] as const;

type Credentials = {
  targetAuthToken?: string | undefined;
  targetUserName?: string | undefined;
  targetPassword?: string | undefined;
};

/**
 * The rule of 2.12/5.3 that a schema cannot say field by field: the target needs a token, or
 * both a user name and a password. The source fields are each optional and the rule is stated
 * for the target only (5.3: "For the target, the token takes priority; without it both user name
 * and password are required"): a source named without credentials, or with a part of them, is a
 * valid body, and the server decides whether it can read that source.
 */
export function credentialProblems(body: Credentials): { path: string; message: string }[] {
  if (body.targetAuthToken || (body.targetUserName && body.targetPassword)) return [];
  const missing = body.targetUserName ? 'targetPassword' : 'targetUserName';
  return [
    {
      path: body.targetUserName || body.targetPassword ? missing : 'targetAuthToken',
      message: 'the target needs targetAuthToken, or both targetUserName and targetPassword',
    },
  ];
}

/**
 * Runs a rule even when other fields already failed, so that every problem is told at once; but
 * only on an object: a body that is not one (an array, a string) has no fields to name.
 */
const whenObject = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};

function withCredentialRules<T extends z.ZodType<Credentials>>(schema: T): T {
  return schema.superRefine((body, ctx) => {
    for (const p of credentialProblems(body)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
  }, whenObject) as unknown as T;
}

export const SystemUpdateOptions = z.lazy(() =>
  withCredentialRules(
    z.strictObject({
      ...commonUpdateFields(),
      products: intList.optional(),
      allowExclusiveProducts: z.boolean().optional(),
      ignoreSystemRequirements: z.boolean().optional(),
      disableEngineUpdate: z.boolean().optional(),
      preserveUnlicensedProducts: z.boolean().optional(),
    }),
  ),
);
export type SystemUpdateOptions = z.infer<typeof SystemUpdateOptions>;

export const VfsUpdateOptions = z.lazy(() =>
  withCredentialRules(
    z
      .strictObject({
        ...commonUpdateFields(),
        files: intList.optional(),
        // Element shape not shown; the emulator takes directory paths.
        directories: z.array(z.unknown()).optional(),
      })
      // A list of the wrong type is told as that alone: the rule is about lists that name nothing.
      .refine(
        (b) =>
          [b.files, b.directories].some((l) => l !== undefined && !Array.isArray(l)) ||
          (Array.isArray(b.files) ? b.files.length : 0) + (Array.isArray(b.directories) ? b.directories.length : 0) > 0,
        {
          ...whenObject,
          path: ['files'],
          message: 'at least one of files or directories is required',
        },
      ),
  ),
);
export type VfsUpdateOptions = z.infer<typeof VfsUpdateOptions>;

// ---- Update result (2.14) ----

const versionPart = z.looseObject({ major: int, minor: int, name: z.string() });

export const UpdateResult = z.lazy(() =>
  z.looseObject({
    options: z.looseObject({}).optional(),
    versions: intList.optional(),
    report: z.string().optional(),
    summary: z.string().optional(),
    success: z.boolean(),
    stats: z
      .looseObject({
        numSourceEntries: count,
        numInserts: count,
        numUpdates: count,
        numDeletes: count,
        numTargetEntries: count,
        operations: z.record(z.string(), z.number()).optional(),
        startedAt: timestamp.optional(),
        finishedAt: timestamp.optional(),
      })
      .optional(),
    targetDatabaseVersionInfo: z.looseObject({ client: versionPart, server: versionPart }).nullable().optional(),
    orphanRecords: z.array(z.looseObject({ tableName: z.string(), path: z.string(), key: int })).optional(),
    products: z.array(z.looseObject({ name: z.string(), key: int })).optional(),
    schemaChanges: z.array(z.unknown()).optional(),
    releaseNotes: z.array(z.unknown()).optional(),
    postUpdateScripts: z.array(z.unknown()).optional(),
    permissionChanges: z.array(z.unknown()).optional(),
    duplicateNameClasses: z.array(z.unknown()).optional(),
    errors: z.array(z.unknown()).optional(),
    messages: z.array(z.unknown()).optional(),
    ddlStatements: z.array(z.unknown()).optional(),
    warnings: z.array(z.unknown()).optional(),
  }),
);
export type UpdateResult = z.infer<typeof UpdateResult>;
