// Monitoring area resources (enterprise-api.md 2.7 to 2.9).
import { z } from 'zod';
import { int, timestamp } from './common.ts';

const str = z.string().optional();
const num = int.optional();
const bool = z.boolean().optional();

export const EngineAlert = z.lazy(() =>
  z.looseObject({
    severity: z.string(),
    code: z.string(),
    message: z.string().optional(),
    engineId: z.string().optional(),
  }),
);
export type EngineAlert = z.infer<typeof EngineAlert>;

export const ApplicationSessionInfo = z.lazy(() =>
  z.looseObject({
    sessionId: z.string(),
    engineId: z.string(),
    clientId: str,
    clientAddress: str,
    realm: str,
    applicationName: str,
    userAgent: str,
    userName: str,
    applicationKey: num,
    userKey: num,
    createdAt: timestamp.optional(),
    accessedAt: timestamp.optional(),
    expiresAt: timestamp.optional(),
    updatedAt: timestamp.optional(),
    // Types when set: not shown in the spec.
    dropsAt: z.unknown(),
    dropRequestedAt: z.unknown(),
    dropRequesterKey: z.unknown(),
    dropRequesterName: z.unknown(),
    dropReason: z.unknown(),
  }),
);
export type ApplicationSessionInfo = z.infer<typeof ApplicationSessionInfo>;

const ints = <K extends string>(keys: readonly K[]) =>
  z.looseObject(Object.fromEntries(keys.map((k) => [k, num])) as Record<K, typeof num>);

export const EngineInfo = z.lazy(() =>
  z.looseObject({
    /** The unique Engine identifier used in engines/{engineId}. */
    instanceId: z.string(),
    version: z.string(),
    updatedAt: timestamp,
    startedAt: timestamp.optional(),
    platform: str,
    mainDatabase: str,
    hostAddress: str,
    providerName: str,
    name: str,
    arch: str,
    hostName: str,
    osName: str,
    freeDisk: num,
    openSocketCount: num,
    mainHttpPort: num,
    usedVirtualMemory: num,
    openFileCount: num,
    paths: z.looseObject({ dataDir: str, logDir: str, programDir: str, mainProgram: str, tempDir: str }).optional(),
    // Element shapes inside EngineInfo: not shown.
    applicationSessions: z.array(z.unknown()).optional(),
    alerts: z.array(z.unknown()).optional(),
    ports: z
      .array(
        z.looseObject({
          enabled: bool,
          disabledOnStartup: bool,
          cipherList: str,
          protocol: str,
          address: str,
          port: num,
        }),
      )
      .optional(),
    databases: z
      .array(z.looseObject({ enabled: bool, name: str, type: str, reference: str, userName: str, maxConnections: num }))
      .optional(),
    config: z.looseObject({ timeZoneBias: num, automaticUpgrade: bool, syncToDisk: bool }).optional(),
    memoryStats: ints([
      'statelessSessionsCount',
      'statefulSessionsCount',
      'standaloneSessionsCount',
      'availablePageFile',
      'totalPageFile',
      'totalPhysical',
      'availablePhysical',
      'usedPhysical',
      'usedVirtual',
    ]).optional(),
    cpuInfo: z
      .looseObject({
        stepping: num,
        model: num,
        family: num,
        logicalCores: num,
        physicalCores: num,
        addressWidth: num,
        vendorId: str,
        modelName: str,
      })
      .optional(),
    dbCache: z
      .looseObject({
        version: num,
        idoCacheSize: num,
        pageSize: num,
        lastSyncDuration: num,
        size: num,
        tableCount: num,
        lastSyncError: str,
        syncing: bool,
      })
      .optional(),
    scheduler: ints(['maxConcurrentTaskCount', 'taskCount', 'runningTaskCount', 'failingTaskCount']).optional(),
    transactionLogger: z.looseObject({ pendingLogs: num, sendingError: str }).optional(),
  }),
);
export type EngineInfo = z.infer<typeof EngineInfo>;
