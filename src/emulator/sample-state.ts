// Longer than 250 lines: it is data (the documented sample classes, entities, licenses and Engines), not logic.
// The documented sample state the emulator starts with (docs/emulator.md describes it).
// Dates and timestamps are relative to `now`, so licenses expire and Engines report on time.
import type { ClassDef, EmulatorState, EngineRecord, StoredEntity } from './state.ts';

const DAY = 86_400_000;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const ints = { type: 'array', items: { type: 'integer' } } as const;

export const SAMPLE_CLASSES: ClassDef[] = [
  {
    key: 1,
    name: 'Object',
    MAE: null,
    table: null,
    required: ['iclass', 'ikey'],
    properties: { iclass: int, ikey: int, iversion: int },
  },
  { key: 10, name: 'Security', MAE: 1, table: null, required: [], properties: {} },
  {
    key: 11,
    name: 'Users and groups',
    MAE: 10,
    table: 'users',
    required: ['iname', 'ifullname'],
    properties: { iname: str, ifullname: str, istatus: int, igroups: ints, isecuritypolicy: int, iemailaddress: str },
  },
  {
    key: 12,
    name: 'Users',
    MAE: 11,
    table: 'users',
    required: [],
    properties: {
      ilastpasswdchg: { type: 'string', format: 'date' },
      ismtpserver: int,
      ichangeablelicenses: str,
      iissuablelicenses: str,
      ihomeprocess: int,
      ishortcuts: ints,
      inavtreevisibilitymode: { type: 'integer', enum: [0, 1, 2] },
      iinformedfields: str,
      iproduct: str,
      ibegin: {},
      ibeginhour: {},
      iend: {},
      iendhour: {},
      ipassword: {},
    },
  },
  { key: 13, name: 'Groups', MAE: 11, table: 'users', required: [], properties: {} },
  { key: 20, name: 'Documents', MAE: 1, table: null, required: [], properties: {} },
  {
    key: 21,
    name: 'Invoices',
    MAE: 20,
    table: 'invoices',
    required: ['iname'],
    properties: {
      iname: str,
      ifullname: str,
      icustomer: str,
      itotal: { type: 'number' },
      idate: { type: 'string', format: 'date' },
      // Names a users-and-groups class types otherwise: a class defines its own fields (api 2.1).
      istatus: { type: 'string', enum: ['open', 'paid'] },
      iproduct: int,
    },
  },
  {
    key: 22,
    name: 'Invoice lines',
    MAE: 20,
    table: 'invoicelines',
    required: ['entidade'],
    properties: { iname: str, entidade: int, iproductcode: str, iquantity: { type: 'number' } },
  },
  {
    key: 30,
    name: 'Deployments',
    MAE: 1,
    table: 'deployments',
    required: ['iname'],
    properties: {
      iname: str,
      irelease: str,
      itarget: str,
      ioutcome: { type: 'string', enum: ['started', 'success', 'failure'] },
      imessage: str,
    },
  },
  {
    key: 90,
    name: 'iLog',
    MAE: 1,
    table: 'ilog',
    required: [],
    properties: {
      iname: str,
      ientity: int,
      ientityclass: int,
      ioperation: { type: 'string', enum: ['insert', 'update', 'delete'] },
      ioldvalues: { type: 'object' },
      inewvalues: { type: 'object' },
      iuser: str,
      itimestamp: int,
    },
  },
];

function user(ikey: number, iname: string, ifullname: string, extra: Record<string, unknown> = {}): StoredEntity {
  return {
    iclass: 12,
    ikey,
    iname,
    ifullname,
    iversion: 1,
    istatus: 1,
    igroups: [],
    isecuritypolicy: null,
    iemailaddress: null,
    ...extra,
  };
}

function engine(
  now: number,
  [instanceId, name]: readonly [string, string],
  mainDatabase: string,
  hostName: string,
  reporting = true,
  version = '26.10.3',
): EngineRecord {
  const startedAt = now - 3 * DAY;
  return {
    instanceId,
    // Not the instanceId nor the host name (api 2.7 has three fields): a client that takes one for another fails here.
    name,
    version,
    mainDatabase,
    reporting,
    updatedAt: reporting ? now : now - 3 * 60 * 60_000,
    startedAt,
    platform: 'linux',
    hostAddress: '10.0.0.10',
    providerName: 'PostgreSQL',
    arch: 'x64',
    hostName,
    osName: 'Debian GNU/Linux 12',
    freeDisk: 120_000_000_000,
    openSocketCount: 42,
    mainHttpPort: 8080,
    usedVirtualMemory: 3_200_000_000,
    openFileCount: 310,
    paths: {
      dataDir: '/var/lib/engine',
      logDir: '/var/log/engine',
      programDir: '/opt/engine',
      mainProgram: '/opt/engine/engine',
      tempDir: '/tmp',
    },
    ports: [
      { enabled: true, disabledOnStartup: false, cipherList: '', protocol: 'http', address: '0.0.0.0', port: 8080 },
    ],
    databases: [
      {
        enabled: true,
        name: mainDatabase,
        type: 'main',
        reference: mainDatabase,
        userName: 'engine',
        maxConnections: 50,
      },
    ],
    config: { timeZoneBias: 0, automaticUpgrade: false, syncToDisk: true },
    memoryStats: {
      statelessSessionsCount: 3,
      statefulSessionsCount: 2,
      standaloneSessionsCount: 0,
      availablePageFile: 4_000_000_000,
      totalPageFile: 8_000_000_000,
      totalPhysical: 16_000_000_000,
      availablePhysical: 9_000_000_000,
      usedPhysical: 7_000_000_000,
      usedVirtual: 3_200_000_000,
    },
    cpuInfo: {
      stepping: 7,
      model: 85,
      family: 6,
      logicalCores: 8,
      physicalCores: 4,
      addressWidth: 64,
      vendorId: 'GenuineIntel',
      modelName: 'Intel Xeon',
    },
    dbCache: {
      version: 100,
      idoCacheSize: 512,
      pageSize: 8192,
      lastSyncDuration: 1200,
      size: 1_000_000,
      tableCount: 120,
      lastSyncError: '',
      syncing: false,
    },
    scheduler: { maxConcurrentTaskCount: 4, taskCount: 12, runningTaskCount: 1, failingTaskCount: 0 },
    transactionLogger: { pendingLogs: 0, sendingError: '' },
  };
}

function session(now: number, sessionId: string, engineId: string, userName: string, userKey: number) {
  return {
    sessionId,
    engineId,
    clientId: `client-${sessionId}`,
    clientAddress: '10.0.5.21',
    realm: 'erp',
    applicationName: 'ERP Desktop',
    userAgent: 'ERPClient/26.10',
    userName,
    applicationKey: 1,
    userKey,
    createdAt: now - 60 * 60_000,
    accessedAt: now - 60_000,
    expiresAt: now + 30 * 60_000,
    updatedAt: now - 60_000,
    dropsAt: null,
    dropRequestedAt: null,
    dropRequesterKey: null,
    dropRequesterName: null,
    dropReason: null,
  };
}

export function sampleState(now: number): EmulatorState {
  const entities: StoredEntity[] = [
    user(-1, 'admin', 'Administrator', { iemailaddress: 'admin@example.com' }),
    user(2001, 'jdoe', 'John Doe', {
      igroups: [2010],
      iemailaddress: 'john.doe@example.com',
      ilastpasswdchg: isoDay(now - 40 * DAY),
    }),
    user(2002, 'asmith', 'Anna Smith', { igroups: [2010, 2011], iemailaddress: 'anna.smith@example.com' }),
    {
      iclass: 13,
      ikey: 2010,
      iname: 'Accounting',
      ifullname: 'Accounting group',
      iversion: 1,
      istatus: 1,
      igroups: [],
      isecuritypolicy: null,
      iemailaddress: null,
    },
    {
      iclass: 13,
      ikey: 2011,
      iname: 'Developers',
      ifullname: 'Developers group',
      iversion: 1,
      istatus: 1,
      igroups: [],
      isecuritypolicy: null,
      iemailaddress: null,
    },
    {
      iclass: 21,
      ikey: 3001,
      iversion: 1,
      iname: 'INV-3001',
      ifullname: 'Invoice 3001',
      icustomer: 'ACME',
      itotal: 1200.5,
      idate: '2026-10-02',
      istatus: 'paid',
      iproduct: 1,
    },
    {
      iclass: 21,
      ikey: 3002,
      iversion: 1,
      iname: 'INV-3002',
      ifullname: 'Invoice 3002',
      icustomer: 'Globex',
      itotal: 87,
      idate: '2026-10-15',
      istatus: 'open',
      iproduct: 2,
    },
    { iclass: 22, ikey: 4001, iversion: 1, iname: 'line 1', entidade: 3001, iproductcode: 'SKU-1', iquantity: 10 },
    { iclass: 22, ikey: 4002, iversion: 1, iname: 'line 2', entidade: 3001, iproductcode: 'SKU-2', iquantity: 1 },
    { iclass: 22, ikey: 4003, iversion: 1, iname: 'line 1', entidade: 3002, iproductcode: 'SKU-9', iquantity: 3 },
  ];
  // Two changes since the replicas were last synced: jdoe's e-mail (version 101), invoice 3003 (102).
  const replicaCopy = entities
    .filter((e) => e.ikey > 0)
    .map((e) => (e.ikey === 2001 ? { ...e, iemailaddress: 'jdoe@old.example.com' } : { ...e }));
  entities.push({
    iclass: 21,
    ikey: 3003,
    iversion: 1,
    iname: 'INV-3003',
    ifullname: 'Invoice 3003',
    icustomer: 'Initech',
    itotal: 455,
    idate: '2026-11-20',
    istatus: 'open',
    iproduct: 1,
  });

  const target = (key: number, name: string, server: string, tokens: string[]) => ({
    key,
    name,
    server,
    users: [{ name: 'deploy', password: 'deploy-pass' }],
    tokens,
    application: { major: 26, minor: 10, name: '2026.10' },
    engine: '26.10.3',
    schemaVersion: 2610002,
    vfsFiles: { '1001': 2, '1002': 2, '1003': 5 },
    entities: replicaCopy.map((e) => ({ ...e })),
    replicatedVersion: 100,
    failReplication: null,
  });

  return {
    source: {
      server: 'main-db.example.com',
      database: 'MAIN',
      users: [{ name: 'deploy', password: 'deploy-pass' }],
      tokens: ['main-token'],
    },
    classes: SAMPLE_CLASSES,
    entities,
    iLogClass: 90,
    iLog: [],
    nextKey: 5000,
    nextLocalKey: -100_000,
    dataVersion: 102,
    journal: [
      { version: 101, ikey: 2001, op: 'update' },
      { version: 102, ikey: 3003, op: 'insert' },
    ],
    products: [
      { key: 1, name: 'ERP Core', extensions: [11, 12] },
      { key: 2, name: 'Payroll', extensions: [21] },
      { key: 3, name: 'CRM', extensions: [] },
    ],
    extensions: [
      { key: 11, name: 'Multi-currency', code: 'MCUR', productKey: 1, productName: 'ERP Core' },
      { key: 12, name: 'Advanced reporting', code: 'AREP', productKey: 1, productName: 'ERP Core' },
      { key: 21, name: 'Time tracking', code: 'TIME', productKey: 2, productName: 'Payroll' },
    ],
    licenses: [
      {
        productName: 'ERP Core',
        productKey: 1,
        type: 'connection',
        quantity: 50,
        extensions: [11],
        licenseeName: 'ACME Corp',
        licenseeId: 'ACME-001',
        licenserKey: 7001,
        expiration: isoDay(now + 200 * DAY),
      },
      {
        productName: 'Payroll',
        productKey: 2,
        type: 'nominalUser',
        quantity: 25,
        extensions: [],
        licenseeName: 'ACME Corp',
        licenseeId: 'ACME-001',
        licenserKey: 7001,
        expiration: isoDay(now + 20 * DAY),
      },
    ],
    licenser: { key: 7001, licenseVersion: 3 },
    engines: [
      engine(now, ['eng-main-01', 'main-engine-1'], 'MAIN', 'main-app-01', true, '26.11.0'),
      engine(now, ['eng-prod-01', 'prod-engine-1'], 'PROD', 'prod-app-01'),
      engine(now, ['eng-prod-02', 'prod-engine-2'], 'PROD', 'prod-app-02'),
      engine(now, ['eng-stg-01', 'stg-engine-1'], 'STAGING', 'stg-app-01'),
      engine(now, ['eng-prod-old', 'prod-engine-old'], 'PROD', 'prod-app-old', false),
    ],
    sessions: [
      session(now, 'sess-1001', 'eng-prod-01', 'jdoe', 2001),
      session(now, 'sess-1002', 'eng-prod-01', 'asmith', 2002),
      session(now, 'sess-1003', 'eng-prod-02', 'jdoe', 2001),
      session(now, 'sess-1004', 'eng-main-01', 'admin', -1),
    ],
    alerts: [
      {
        severity: 'warning',
        code: 'low_free_disk',
        message: 'Free disk below 15% on /var/lib/engine',
        engineId: 'eng-prod-02',
      },
      {
        severity: 'warning',
        code: 'outdated_engine',
        message: 'Engine 26.10.3 is older than the release 26.11.0',
        engineId: 'eng-stg-01',
      },
    ],
    replication: {
      configs: [
        {
          key: 1,
          name: 'Nightly to replicas',
          enabled: true,
          databases: [
            { name: 'REPLICA-1', key: 11 },
            { name: 'REPLICA-2', key: 12 },
          ],
        },
        { key: 2, name: 'Reporting copy', enabled: false, databases: [{ name: 'REPORTING', key: 13 }] },
      ],
    },
    release: {
      application: { major: 26, minor: 11, name: '2026.11' },
      engine: '26.11.0',
      schemaVersions: [2610001, 2610002, 2611001, 2611002, 2611003],
      vfsFiles: [
        { key: 1001, path: '/reports/sales/summary.rpt', version: 3, size: 18_432 },
        { key: 1002, path: '/reports/sales/detail.rpt', version: 2, size: 22_010 },
        { key: 1003, path: '/scripts/post-update.js', version: 5, size: 2_048 },
        { key: 1004, path: '/templates/invoice.html', version: 1, size: 6_120 },
      ],
    },
    databases: [
      target(1, 'PROD', 'prod-db.example.com', ['prod-token']),
      target(2, 'STAGING', 'staging-db.example.com', ['staging-token']),
      target(11, 'REPLICA-1', 'replica1.example.com', []),
      target(12, 'REPLICA-2', 'replica2.example.com', []),
      target(13, 'REPORTING', 'reporting.example.com', []),
    ],
  };
}
