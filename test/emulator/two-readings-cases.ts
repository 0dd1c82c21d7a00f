// The table of two-readings.test.ts: request bodies, valid and not, of the update and license
// create operations (enterprise-api.md 2.12, 2.13, 4.2), and every operation of 4.1 to 4.4. Valid
// bodies name what the emulator's sample state holds (products 1 to 3, vfs files 1001 to 1004,
// absolute directories, licensing versions 1 to 3), so that its state refuses none of them.

export type Operation = 'system' | 'vfs' | 'create';

export interface BodyCase {
  op: Operation;
  what: string;
  body: unknown;
}

const token = { targetDBName: 'PROD', targetServer: 'prod-db.example.com', targetAuthToken: 'prod-token' };
const userAndPassword = {
  targetDBName: 'PROD',
  targetServer: 'prod-db.example.com',
  targetUserName: 'deploy',
  targetPassword: 'deploy-pass',
};
const source = { sourceServer: 'main-db.example.com', sourceDBName: 'MAIN' };

/** A right value of each type word of 2.12 and 2.13, and wrong ones. */
const RIGHT = {
  string: 'x',
  integer: 1,
  integers: [1, 2],
  boolean: true,
  any: null,
  files: [1001],
  directories: ['/reports'],
};
const WRONG: Record<string, unknown[]> = {
  string: [5, true, null, ['x'], { a: 1 }],
  integer: ['1', 1.5, true, null, [1], 2 ** 53],
  integers: ['1', 1, [1.5], ['1'], [null], null, {}],
  boolean: ['true', 0, 1, null, [true]],
  any: [],
};

/** 2.12's fields by type word; 2.13's are those of them it lists, and files and directories. */
const SYSTEM_TYPES: Record<string, keyof typeof RIGHT> = {
  targetDBName: 'string',
  targetServer: 'string',
  targetAuthToken: 'string',
  targetUserName: 'string',
  targetPassword: 'string',
  sourceServer: 'string',
  sourceDBName: 'string',
  sourceUserName: 'string',
  sourcePassword: 'string',
  sourceAuthToken: 'string',
  recipients: 'string',
  messageComplement: 'string',
  trackingId: 'string',
  updateType: 'integer',
  products: 'integers',
  allowExclusiveProducts: 'boolean',
  ignoreOtherEngineServers: 'boolean',
  ignoreSystemRequirements: 'boolean',
  disableEngineUpdate: 'boolean',
  disableDatabaseSchemaUpdate: 'boolean',
  disableEngineRestart: 'boolean',
  preserveUnlicensedProducts: 'boolean',
  onlineIndexDrop: 'any',
  onlineIndexCreation: 'any',
};
const SYSTEM_ONLY = [
  'products',
  'allowExclusiveProducts',
  'ignoreSystemRequirements',
  'disableEngineUpdate',
  'preserveUnlicensedProducts',
];
const VFS_TYPES: Record<string, keyof typeof RIGHT> = {
  ...Object.fromEntries(Object.entries(SYSTEM_TYPES).filter(([f]) => !SYSTEM_ONLY.includes(f))),
  files: 'files',
  directories: 'directories',
};

const cases: BodyCase[] = [];
const add = (op: Operation, what: string, body: unknown) => cases.push({ op, what, body });

function without<T extends Record<string, unknown>>(body: T, ...fields: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !fields.includes(k)));
}

// ---- Updates (2.12, 2.13, 5.3) ----
for (const op of ['system', 'vfs'] as const) {
  const types = op === 'system' ? SYSTEM_TYPES : VFS_TYPES;
  const base = op === 'system' ? token : { ...token, files: [1001] };
  const rest = op === 'system' ? {} : { files: [1001] };
  add(op, 'a token', base);
  add(op, 'user name and password', { ...userAndPassword, ...rest });
  add(op, 'a token and user name and password', { ...base, ...userAndPassword });
  add(op, 'an empty token, user name and password', { ...userAndPassword, targetAuthToken: '', ...rest });
  add(op, 'a token and an empty user name', { ...base, targetUserName: '' });
  add(op, 'a source without credentials', { ...base, ...source });
  add(op, 'a source with a token', { ...base, ...source, sourceAuthToken: 'main-token' });
  add(op, 'a source with user name and password', {
    ...base,
    ...source,
    sourceUserName: 'deploy',
    sourcePassword: 'deploy-pass',
  });
  add(op, 'only a source user name', { ...base, sourceUserName: 'deploy' });
  add(op, 'only a source database', { ...base, sourceDBName: 'MAIN' });
  add(op, 'every option at a right value', {
    ...Object.fromEntries(Object.entries(types).map(([f, type]) => [f, RIGHT[type]])),
    ...base,
    ...(op === 'system' ? { products: [1, 2, 3] } : {}),
  });
  add(op, 'onlineIndexDrop and onlineIndexCreation of any type', {
    ...base,
    onlineIndexDrop: 1,
    onlineIndexCreation: 'x',
  });
  add(op, 'recipients separated by semicolons', { ...base, recipients: 'a@example.com;b@example.com' });
  add(op, 'updateType at the largest safe integer', { ...base, updateType: Number.MAX_SAFE_INTEGER });
  add(op, 'a negative updateType', { ...base, updateType: -1 });
  for (const [field, type] of Object.entries(types))
    for (const value of WRONG[type] ?? []) add(op, `${field} ${JSON.stringify(value)}`, { ...base, [field]: value });
  for (const field of ['targetDBName', 'targetServer']) {
    add(op, `no ${field}`, without(base, field));
    add(op, `an empty ${field}`, { ...base, [field]: '' });
  }
  add(op, 'no body fields', {});
  add(op, 'no credentials', without(base, 'targetAuthToken'));
  add(op, 'an empty token alone', { ...base, targetAuthToken: '' });
  add(op, 'a user name without password', { ...without(base, 'targetAuthToken'), targetUserName: 'deploy' });
  add(op, 'a password without user name', { ...without(base, 'targetAuthToken'), targetPassword: 'deploy-pass' });
  add(op, 'an empty user name and a password', { ...userAndPassword, targetUserName: '', ...rest });
  add(op, 'a user name and an empty password', { ...userAndPassword, targetPassword: '', ...rest });
  add(op, 'a source token and no target credentials', { ...without(base, 'targetAuthToken'), sourceAuthToken: 't' });
  add(op, 'an unknown field', { ...base, colour: 'red' });
  add(op, 'a misspelt field', { ...base, targetDbName: 'PROD' });
  // A key JSON.parse makes an own property, as any other.
  add(op, 'a field named __proto__', JSON.parse(`{"__proto__": {"x": 1}, ${JSON.stringify(base).slice(1)}`));
  for (const body of [[], null, 'x', 5, [base]]) add(op, 'a body that is not an object', body);
}
for (const field of ['files', 'directories'])
  add('system', `vfs's ${field}`, { ...token, [field]: RIGHT[field as 'files'] });
for (const field of SYSTEM_ONLY)
  add('vfs', `system's ${field}`, { ...token, files: [1001], [field]: RIGHT[SYSTEM_TYPES[field]!] });
// 2.13: "At least one of files or directories is required".
for (const [what, lists] of [
  ['directories alone', { directories: ['/reports'] }],
  ['files and directories', { files: [1002], directories: ['/templates/'] }],
  ['an empty files and directories', { files: [], directories: ['/reports'] }],
  ['files and an empty directories', { files: [1001], directories: [] }],
  ['neither', {}],
  ['files empty', { files: [] }],
  ['directories empty', { directories: [] }],
  ['both empty', { files: [], directories: [] }],
  ['files null', { files: null }],
  ['files empty and directories of the wrong type', { files: [], directories: '/reports' }],
] as const)
  add('vfs', what, { ...token, ...lists });

// ---- licenses/create (4.2, 2.4) ----
const item = { productKey: 1, quantity: 10, type: 'C' };
const request = { licenseeId: 'ACME-001', licenseeName: 'ACME Corp', expiration: '2027-12-31', licenses: [item] };
add('create', 'the required fields', request);
add('create', 'every field', {
  ...request,
  licenserKey: 7001,
  licenseVersion: 2,
  licenses: [
    { ...item, extensions: [11, 12] },
    { productKey: 2, quantity: 1.5, type: 'nominalUser', extensions: [] },
  ],
});
for (const type of ['connection', 'processor', 'nominalUser', 'simultaneousUser', 'custom', 'C', 'P', 'U', 'S', 'X'])
  add('create', `type ${type}`, { ...request, licenses: [{ ...item, type }] });
for (const type of ['c', 'Connection', 'Z', '', 'CP', 'constructor', 'toString'])
  add('create', `type ${type}`, { ...request, licenses: [{ ...item, type }] });
for (const v of [null, '', 1, 3])
  add('create', `licenseVersion ${JSON.stringify(v)}`, { ...request, licenseVersion: v });
for (const v of ['1', 'x', true, [], {}])
  add('create', `licenseVersion ${JSON.stringify(v)}`, { ...request, licenseVersion: v });
for (const v of [-3.7, 7001.5, '7001', null, true])
  add('create', `licenserKey ${JSON.stringify(v)}`, { ...request, licenserKey: v });
for (const field of ['licenseeId', 'licenseeName', 'expiration', 'licenses']) {
  add('create', `no ${field}`, without(request, field));
  for (const value of [5, null, true, {}])
    add('create', `${field} ${JSON.stringify(value)}`, { ...request, [field]: value });
}
for (const field of ['licenseeId', 'licenseeName']) add('create', `an empty ${field}`, { ...request, [field]: '' });
for (const date of ['2028-02-29', '2000-02-29', '0001-01-01'])
  add('create', `expiration ${date}`, { ...request, expiration: date });
for (const date of [
  '2027-02-29',
  '1900-02-29',
  '2027-02-30',
  '2027-13-01',
  '2027-2-3',
  '20271231',
  '2027-12-31T00:00:00Z',
  '',
])
  add('create', `expiration ${date}`, { ...request, expiration: date });
add('create', 'no license', { ...request, licenses: [] });
add('create', 'a license that is not an object', { ...request, licenses: [5] });
for (const field of ['productKey', 'quantity', 'type'])
  add('create', `an item without ${field}`, { ...request, licenses: [without(item, field)] });
for (const [field, values] of [
  ['productKey', ['1', 1.5, null, true]],
  ['quantity', ['10', null, true, [10]]],
  ['type', [3, null, ['C']]],
  ['extensions', [11, '11', [11.5], ['11'], [null], null]],
] as const)
  for (const value of values)
    add('create', `an item's ${field} ${JSON.stringify(value)}`, {
      ...request,
      licenses: [{ ...item, [field]: value }],
    });
add('create', 'an item with an unknown field', { ...request, licenses: [{ ...item, product: 1 }] });
add('create', 'an unknown field', { ...request, licensee: 'x' });
add('create', 'a second item of the wrong type', { ...request, licenses: [item, { ...item, quantity: 'x' }] });
for (const body of [[], null, 'x', 5, [request]]) add('create', 'a body that is not an object', body);

export const BODY_CASES: readonly BodyCase[] = cases;

/** Every operation of 4.1 to 4.4, with keys of the sample state. */
const C = '/api/classes/v1';
const L = '/api/licensing/v1';
const M = '/api/monitoring/v1';
const D = '/api/devops/v1';
export const OPERATIONS: readonly { method: string; path: string }[] = [
  ...['schema', 'entities', 'children', 'descendants', 'entities/2001'].map((p) => ({
    method: 'GET',
    path: `${C}/classes/12/${p}`,
  })),
  { method: 'POST', path: `${C}/classes/12/entities` },
  ...['POST', 'PATCH', 'PUT', 'DELETE'].map((method) => ({ method, path: `${C}/classes/12/entities/2002` })),
  { method: 'GET', path: `${C}/entities/2001` },
  ...['POST', 'PATCH', 'PUT', 'DELETE'].map((method) => ({ method, path: `${C}/entities/2001` })),
  ...['licenses', 'licenses/1', 'products', 'products/1', 'products/1/extensions', 'extensions', 'extensions/11'].map(
    (p) => ({
      method: 'GET',
      path: `${L}/${p}`,
    }),
  ),
  { method: 'DELETE', path: `${L}/licenses/2` },
  { method: 'POST', path: `${L}/licenses` },
  { method: 'POST', path: `${L}/licenses/create` },
  ...[
    'engines',
    'engines/eng-main-01',
    'engines/eng-main-01/sessions',
    'engines/eng-main-01/sessions/s-1',
    'engines/eng-main-01/alerts',
    'sessions',
    'sessions/s-1',
    'alerts',
  ].map((p) => ({ method: 'GET', path: `${M}/${p}` })),
  { method: 'POST', path: `${D}/transaction-log/clear` },
  { method: 'GET', path: `${D}/replication/configs` },
  { method: 'GET', path: `${D}/replication/configs/1` },
  { method: 'POST', path: `${D}/replication/configs/1/sync` },
  { method: 'POST', path: `${D}/replication/sync` },
  { method: 'POST', path: `${D}/update/system` },
  { method: 'POST', path: `${D}/update/vfs` },
];
