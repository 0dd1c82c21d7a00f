// Texts several step types share in their input docs (each step type declares `inputDocs`, which
// the pipeline JSON Schema shows in editors and the single-step actions take as descriptions).

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

export const WAIT =
  'Wait until the condition holds: { timeout: 30m, interval: 2m } (interval at least 2m, the monitoring refresh).';
export const ENGINE = 'Only this Engine (its instanceId).';

export const UPDATE: Record<string, string> = {
  target:
    'The target database: a name under targets:, or { server, database, token | username + password }. Sent as targetServer, targetDBName and targetAuthToken (or targetUserName and targetPassword).',
  source:
    'The source database, { server, database, token | username + password }; default: the database the API runs on.',
  'update-type': 'Update type (a key): updateType.',
  recipients: 'Notification recipients: a list, or one string separated by commas, semicolons or newlines.',
  message: 'Text added to the notification: messageComplement.',
  'tracking-id': 'Tracking id of the update, e.g. a change number: trackingId.',
  'online-index-drop': 'onlineIndexDrop, passed as given.',
  'online-index-creation': 'onlineIndexCreation, passed as given.',
  ...Object.fromEntries(Object.entries(FLAG_DOCS).map(([flag, doc]) => [kebab(flag), `${doc} (${flag})`])),
};

export const CLASS = 'Key of the class (a class whose table is in the local cache).';
