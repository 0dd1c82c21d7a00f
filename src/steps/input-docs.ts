// What each step input means, in one place: the pipeline JSON Schema shows it in editors (hover,
// completion), and the single-step actions take their input descriptions from it.

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The boolean options of SystemUpdateOptions and VfsUpdateOptions. */
export const FLAG_DOCS: Readonly<Record<string, string>> = {
  allowExclusiveProducts: 'Allow products that exclude each other.',
  ignoreOtherEngineServers: 'Go on although other Engine servers are connected.',
  ignoreSystemRequirements: 'Go on although system requirements are not met.',
  disableEngineUpdate: 'Do not update the Engine.',
  disableDatabaseSchemaUpdate: 'Do not update the database schema.',
  disableEngineRestart: 'Do not restart the Engine after the update.',
  preserveUnlicensedProducts: 'Keep products that are not licensed.',
};

const WAIT = 'Wait until the condition holds: { timeout: 30m, interval: 2m } (interval at least 2m, the monitoring refresh).';
const ENGINE = 'Only this Engine (its instanceId).';

const UPDATE: Record<string, string> = {
  target: 'The target database: a name under targets:, or { server, database, token | username + password }. Sent as targetServer, targetDBName and targetAuthToken (or targetUserName and targetPassword).',
  source: 'The source database, { server, database, token | username + password }; default: the database the API runs on.',
  'update-type': 'Update type (a key): updateType.',
  recipients: 'Notification recipients: a list, or one string separated by commas, semicolons or newlines.',
  message: 'Text added to the notification: messageComplement.',
  'tracking-id': 'Tracking id of the update, e.g. a change number: trackingId.',
  'online-index-drop': 'onlineIndexDrop, passed as given.',
  'online-index-creation': 'onlineIndexCreation, passed as given.',
  ...Object.fromEntries(Object.entries(FLAG_DOCS).map(([flag, doc]) => [kebab(flag), `${doc} (${flag})`])),
};

const CLASS = 'Key of the class (a class whose table is in the local cache).';

export const INPUT_DOCS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'transaction-log/clear': {},
  'replication/sync': { config: 'Key of the replication configuration; every enabled configuration when absent.' },
  'update/system': { ...UPDATE, products: 'Product keys to update: a list, or one string separated by commas; default: every product.' },
  'update/vfs': {
    ...UPDATE,
    files: 'Keys of vfs files to update or insert: a list ([1001, 1002]), or one string separated by commas. files or directories is required.',
    directories: 'Vfs directories to update or insert (absolute vfs paths such as /reports). files or directories is required.',
  },
  'monitoring/engines': {
    'min-online': 'At least this many Engines online (reported within the last 5 minutes); default 1.',
    version: 'Every online Engine runs this version.',
    engine: `${ENGINE} Online only if it reported within the last 5 minutes.`,
    database: 'Only the Engines whose mainDatabase is this database.',
    engines: 'The Engines expected, by instanceId, name or host name: each must be online (and on version, which then concerns them only); one that never came back is named in the output missing.',
    wait: WAIT,
  },
  'monitoring/alerts': {
    'fail-on': 'Fail on alerts of this severity or above: warning, critical (default), or none.',
    'ignore-codes': 'Alert codes to ignore, e.g. [outdated_engine].',
    engine: ENGINE,
  },
  'monitoring/sessions': { 'max-active': 'Wait until at most this many application sessions are active.', engine: ENGINE, wait: WAIT },
  'licensing/create': {
    'licensee-id': 'Id of the licensee.',
    'licensee-name': 'Name of the licensee.',
    expiration: 'Expiration date, YYYY-MM-DD.',
    licenses: 'At least one license: { product, quantity, type (connection, processor, nominalUser, simultaneousUser, custom, or C, P, U, S, X), extensions }.',
    'licenser-key': 'Key of the licenser: only to renew a license.',
    'license-version': 'Licensing version; the most current when absent.',
  },
  'licensing/add': { code: 'The encrypted license code (from licensing/create). Masked everywhere.' },
  'licensing/remove': { key: 'Key of the product whose license is removed.' },
  'replication/check': { configs: 'The replication configurations expected enabled, by key or name; every one when absent.' },
  'licensing/check': { product: 'The product, by key or name; every license when absent.', 'min-days-left': 'Fail when the license expires in fewer days than this.' },
  'classes/get': { id: 'Identifier or key of the entity.', class: `${CLASS} Optional: entities are found by id alone.` },
  'classes/query': { class: CLASS, where: 'Equality filters: { field: value } (entities of child classes included).' },
  'classes/create': { class: CLASS, fields: 'The entity\'s fields: { iname: ..., ... }.' },
  'classes/update': { id: 'Identifier or key of the entity.', class: `${CLASS} Optional.`, fields: 'The fields to change; others stay as they are.' },
  'classes/delete': { id: 'Identifier or key of the entity.', class: `${CLASS} Optional.` },
  'api/request': {
    method: 'HTTP method: GET (default), POST, PUT, PATCH or DELETE.',
    path: 'An API path, e.g. /api/monitoring/v1/engines.',
    query: 'Query parameters: { name: value }.',
    body: 'The request body: JSON, or text with content-type.',
    'content-type': 'Media type of the body; default application/json.',
    'expect-status': 'The status (or list of statuses) that means success; default any 2xx.',
  },
  assert: { that: 'The condition: an expression, bare or in one ${{ }}, e.g. steps.sync.outputs.failed == 0.', message: 'What the failure says.' },
};
