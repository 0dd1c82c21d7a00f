// The emulator's state: everything the API shows, as one JSON-serialisable value. The sample
// state (sample-state.ts) is the default; `--state FILE` replaces it with a file of this shape.
import { z } from 'zod';

const record = z.record(z.string(), z.unknown());

export const FieldDef = z.looseObject({
  type: z.enum(['integer', 'number', 'string', 'boolean', 'array', 'object']).optional(),
  items: z.looseObject({ type: z.string().optional() }).optional(),
  enum: z.array(z.unknown()).optional(),
  format: z.string().optional(),
});
export type FieldDef = z.infer<typeof FieldDef>;

export const ClassDef = z.object({
  key: z.int(),
  name: z.string(),
  /** Parent class key; null for a root. */
  MAE: z.int().nullable(),
  /** The table the class maps; null for a class that only groups definitions. */
  table: z.string().nullable(),
  /** Fields this class adds to its parent's. */
  properties: z.record(z.string(), FieldDef),
  required: z.array(z.string()).default([]),
});
export type ClassDef = z.infer<typeof ClassDef>;

/** An entity as stored: fields by lower-case name; iclass and ikey always set. */
export const StoredEntity = z.looseObject({ iclass: z.int(), ikey: z.int() });
export type StoredEntity = z.infer<typeof StoredEntity> & Record<string, unknown>;

export const VfsFile = z.object({ key: z.int(), path: z.string(), version: z.int(), size: z.int().default(0) });
export type VfsFile = z.infer<typeof VfsFile>;

const VersionName = z.object({ major: z.int(), minor: z.int(), name: z.string() });

/** What the source database (the one the API runs on) holds to deploy elsewhere. */
export const Release = z.object({
  application: VersionName,
  /** The Engine version string Engines report after a system update. */
  engine: z.string(),
  /** Schema update versions, ascending. */
  schemaVersions: z.array(z.int()),
  vfsFiles: z.array(VfsFile),
});

export const TargetDatabase = z.object({
  key: z.int(),
  name: z.string(),
  server: z.string(),
  users: z.array(z.object({ name: z.string(), password: z.string() })).default([]),
  tokens: z.array(z.string()).default([]),
  application: VersionName,
  engine: z.string(),
  /** Highest schema version applied. */
  schemaVersion: z.int(),
  /** vfs file key -> version installed. */
  vfsFiles: z.record(z.string(), z.int()).default({}),
  /** Replicated copies of the source's positive-key entities. */
  entities: z.array(StoredEntity).default([]),
  /** Source data version this database was last replicated to. */
  replicatedVersion: z.int().default(0),
  /** When set, every replication to this database fails with this message (fault injection). */
  failReplication: z.string().nullable().default(null),
});
export type TargetDatabase = z.infer<typeof TargetDatabase>;

export const EngineRecord = z.looseObject({
  instanceId: z.string(),
  version: z.string(),
  mainDatabase: z.string(),
  /** Emulator control: the Engine sends monitoring data (so updatedAt stays fresh). */
  reporting: z.boolean().default(true),
  updatedAt: z.int(),
  startedAt: z.int(),
  /**
   * Emulator state: a version a system update installed that the Engine does not run yet (not
   * restarted: disableEngineRestart, or offline); it runs, and reports, it from its next start.
   */
  pendingVersion: z.string().optional(),
});
export type EngineRecord = z.infer<typeof EngineRecord> & Record<string, unknown>;

export const JournalEntry = z.object({ version: z.int(), ikey: z.int(), op: z.enum(['insert', 'update', 'delete']) });
export type JournalEntry = z.infer<typeof JournalEntry>;

export const EmulatorState = z.object({
  /** The database the API runs on, as an update's source fields name it, with the credentials it takes. */
  source: z.object({
    server: z.string(),
    database: z.string(),
    users: z.array(z.object({ name: z.string(), password: z.string() })).default([]),
    tokens: z.array(z.string()).default([]),
  }),
  classes: z.array(ClassDef),
  entities: z.array(StoredEntity),
  /** Key of the iLog class, whose entities are the transaction log records. */
  iLogClass: z.int(),
  iLog: z.array(StoredEntity).default([]),
  nextKey: z.int(),
  nextLocalKey: z.int(),
  dataVersion: z.int(),
  journal: z.array(JournalEntry).default([]),
  products: z.array(z.looseObject({ key: z.int(), name: z.string(), extensions: z.array(z.int()) })),
  extensions: z.array(
    z.looseObject({ key: z.int(), name: z.string(), code: z.string(), productKey: z.int(), productName: z.string() }),
  ),
  licenses: z.array(record),
  licenser: z.object({ key: z.int(), licenseVersion: z.int() }),
  engines: z.array(EngineRecord),
  sessions: z.array(z.looseObject({ sessionId: z.string(), engineId: z.string(), expiresAt: z.int() })),
  alerts: z.array(z.looseObject({ severity: z.string(), code: z.string(), message: z.string(), engineId: z.string() })),
  replication: z.object({
    configs: z.array(
      z.object({
        key: z.int(),
        name: z.string(),
        enabled: z.boolean(),
        databases: z.array(z.object({ name: z.string(), key: z.int() })),
      }),
    ),
  }),
  release: Release,
  databases: z.array(TargetDatabase),
});
export type EmulatorState = z.infer<typeof EmulatorState>;
