// The world beside the run, for test/fuzz/fate-outside.test.ts: the writes whose fate verify reads
// back (classes create/update/delete by key and by name, licensing add with a code the run made or
// one given, licensing remove, a system update), and what someone else may do to their targets
// between a cut and a verify: rename the entity, delete it and create it again under the same name
// or the same key, create another under its name, update it again (a version bump), write it back,
// do the same write; add, remove or renew a license, put one back as it was; run the same update,
// stop or start an Engine. Each change goes through the emulator's API handler (Emulator.handle),
// as another client's request would, but outside its request log: the log holds the run's requests
// only, the ground truth of what the server applied of the run's write.
import { sealLicenses } from '../../src/emulator/license-code.ts';
import type { Emulator } from '../../src/emulator/index.ts';
import type { EmulatorState, StoredEntity } from '../../src/emulator/state.ts';
import type { WriteCase } from './fate-model.ts';

const C = '/api/classes/v1/classes';
const L = '/api/licensing/v1';
const ADMIN = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

/** A request of another client, through the API's handler: its status (a change that finds nothing to change is no error). */
export function outsideCall(emulator: Emulator, method: string, path: string, body?: unknown): number {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return emulator.handle({
    method,
    path,
    query: new URLSearchParams(),
    headers: {
      authorization: ADMIN,
      ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }),
    },
    body: text,
  }).status;
}

/** The license a code holds: the CRM license both licensing/add writes add (the one the run's licensing/create asks for). */
const CRM = {
  productName: 'CRM',
  productKey: 3,
  type: 'connection',
  quantity: 5,
  extensions: [] as number[],
  licenseeName: 'ACME Corp',
  licenseeId: 'ACME-001',
  licenserKey: 7001,
  expiration: '2027-12-31',
};
const CRM_CODE = sealLicenses({ licenseVersion: 1, licenses: [CRM] });
const CREATE_CRM =
  '{ licensee-id: ACME-001, licensee-name: ACME Corp, expiration: "2027-12-31", licenses: [{ product: 3, quantity: 5, type: connection }] }';

/** What the world looked like when the run started: the entities and licenses a change puts back. */
export interface Start {
  entities: StoredEntity[];
  licenses: EmulatorState['licenses'];
}
export const startOf = (emulator: Emulator): Start => ({
  entities: structuredClone(emulator.state.entities),
  licenses: structuredClone(emulator.state.licenses),
});

/** A change of someone else's: the calls it makes (their answers are not judged: a change may find nothing to change). */
type Change = (emulator: Emulator, start: Start) => void;

/** An entity's fields as a client would post them again: without its class and version (the server sets them), with or without its key. */
function postable(e: StoredEntity, keepKey: boolean): Record<string, unknown> {
  const { iclass: _c, iversion: _v, ikey, ...rest } = e;
  const fields = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null));
  return keepKey ? { ikey, ...fields } : fields;
}

/** The changes to an entity of class `cls`, key `key`, by someone else. `written`: the fields the run's update writes, if one. */
function entityChanges(cls: number, key: number, written?: Record<string, unknown>): Record<string, Change> {
  const at = `${C}/${cls}/entities/${key}`;
  const was = (s: Start) => s.entities.find((e) => e.ikey === key)!;
  const name = (s: Start) => String(was(s).iname);
  return {
    // Another job's update of another field: the version moves.
    bump: (e) => void outsideCall(e, 'PATCH', at, { ifullname: 'Changed by another job' }),
    // The fields the write writes (or its name) written back to what they held at the start.
    'write-back': (e, s) =>
      void outsideCall(
        e,
        'PATCH',
        at,
        Object.fromEntries(Object.keys(written ?? { iname: 0 }).map((k) => [k, was(s)[k] ?? null])),
      ),
    rename: (e, s) => void outsideCall(e, 'PATCH', at, { iname: `${name(s)}-old` }),
    delete: (e) => void outsideCall(e, 'DELETE', at),
    // Deleted, and created again as it was at the start: under the same key (a replication's insert keeps keys) ...
    'recreate-same-key': (e, s) => {
      outsideCall(e, 'DELETE', at);
      outsideCall(e, 'POST', `${C}/${cls}/entities`, postable(was(s), true));
    },
    // ... or under a new key, with the same name.
    'recreate-new-key': (e, s) => {
      outsideCall(e, 'DELETE', at);
      outsideCall(e, 'POST', `${C}/${cls}/entities`, postable(was(s), false));
    },
    // Renamed, and another entity created under its name.
    'rename-and-take-name': (e, s) => {
      outsideCall(e, 'PATCH', at, { iname: `${name(s)}-old` });
      outsideCall(e, 'POST', `${C}/${cls}/entities`, postable(was(s), false));
    },
    // Another entity with its name, beside it.
    'another-same-name': (e, s) =>
      void outsideCall(e, 'POST', `${C}/${cls}/entities`, { ...postable(was(s), false), ifullname: 'A namesake' }),
    // The same write, by someone else.
    'same-write': (e) => void (written ? outsideCall(e, 'PATCH', at, written) : outsideCall(e, 'DELETE', at)),
  };
}

const CREATED = { iname: 'INV-9' };
/** The changes to the class a create writes to: the entity it creates may be there or not. */
const createChanges: Record<string, Change> = {
  'same-write': (e) => void outsideCall(e, 'POST', `${C}/21/entities`, CREATED),
  'another-in-class': (e) => void outsideCall(e, 'POST', `${C}/21/entities`, { iname: 'INV-77' }),
  // The entity the create made, if it did, deleted; renamed; updated.
  'delete-created': (e) => void outsideCall(e, 'DELETE', `${C}/21/entities/INV-9`),
  'rename-created': (e) => void outsideCall(e, 'PATCH', `${C}/21/entities/INV-9`, { iname: 'INV-9-old' }),
  'bump-created': (e) => void outsideCall(e, 'PATCH', `${C}/21/entities/INV-9`, { ifullname: 'Changed' }),
  'delete-other-in-class': (e) => void outsideCall(e, 'DELETE', `${C}/21/entities/3002`),
};

const renewed = (l: Record<string, unknown>) => ({ ...l, expiration: '2031-06-30' });
/** The changes to the licenses: product 1 (ERP Core), 2 (Payroll, the one removed) and 3 (CRM, the one added). */
const licenseChanges: Record<string, Change> = {
  ...Object.fromEntries(
    [1, 2, 3].flatMap((p) => [
      [`remove-${p}`, (e: Emulator) => void outsideCall(e, 'DELETE', `${L}/licenses/${p}`)],
      // Renewed: the same product's license with a later expiration (added where it had none).
      [
        `renew-${p}`,
        (e: Emulator, s: Start) =>
          void outsideCall(
            e,
            'POST',
            `${L}/licenses`,
            sealLicenses({
              licenseVersion: 1,
              licenses: [renewed(s.licenses.find((l) => l.productKey === p) ?? CRM) as Record<string, unknown>],
            }),
          ),
      ],
    ]),
  ),
  // Payroll removed and put back as it was at the start: the same in every field.
  'readd-2': (e, s) => {
    outsideCall(e, 'DELETE', `${L}/licenses/2`);
    outsideCall(
      e,
      'POST',
      `${L}/licenses`,
      sealLicenses({ licenseVersion: 1, licenses: s.licenses.filter((l) => l.productKey === 2) }),
    );
  },
  // The CRM license the add writes, added by someone else (and so, for the remove, another product's).
  'add-crm': (e) => void outsideCall(e, 'POST', `${L}/licenses`, CRM_CODE),
};

const SYSTEM_BODY = {
  targetServer: 'prod-db.example.com',
  targetDBName: 'PROD',
  targetAuthToken: 'prod-token',
  sourceServer: 'main-db.example.com',
  sourceDBName: 'MAIN',
};
const systemChanges: Record<string, Change> = {
  'same-write': (e) => void outsideCall(e, 'POST', '/api/devops/v1/update/system', SYSTEM_BODY),
  'same-write-no-restart': (e) =>
    void outsideCall(e, 'POST', '/api/devops/v1/update/system', { ...SYSTEM_BODY, disableEngineRestart: true }),
  'update-staging': (e) =>
    void outsideCall(e, 'POST', '/api/devops/v1/update/system', {
      ...SYSTEM_BODY,
      targetServer: 'staging-db.example.com',
      targetDBName: 'STAGING',
      targetAuthToken: 'staging-token',
    }),
  'stop-engine': (e) => e.setEngineReporting('eng-prod-01', false),
  'start-offline-engine': (e) => e.restartEngine('eng-prod-old'),
};

/** A write the fuzz cuts, and what someone else may do beside it. */
export interface OutsideWrite extends WriteCase {
  /** Its name in a counterexample. */
  name: string;
  /** Steps of the run before the write (a licensing/create whose code the add sends). */
  before?: string;
  /**
   * Whether the world now holds the write's effect, so that sending it again changes nothing (an
   * update's values, a delete's entity gone, a code's licenses, a removed license gone, Engines at
   * the release): verify may call it applied though the server never applied the run's write
   * (someone else did the same). Absent for a create: sent again, it creates another.
   */
  effect?: (state: EmulatorState) => boolean;
  changes: Record<string, Change>;
}

const holds = (e: StoredEntity | undefined, fields: Record<string, unknown>) =>
  e !== undefined && Object.entries(fields).every(([k, v]) => JSON.stringify(e[k]) === JSON.stringify(v));
const byName = (s: EmulatorState, cls: number, name: string) => {
  const named = s.entities.filter((e) => e.iclass === cls && e.iname === name);
  return named.length === 1 ? named[0] : undefined;
};
const crmHeld = (s: EmulatorState) =>
  s.licenses.some((l) => JSON.stringify({ ...l }) === JSON.stringify({ ...l, ...CRM }));

const UPDATE_BY_KEY = { iname: 'x' };
const UPDATE_BY_NAME = { iemailaddress: 'new@example.com' };

export const OUTSIDE_WRITES: OutsideWrite[] = [
  {
    name: 'create',
    uses: 'classes/create',
    with: '{ class: 21, fields: { iname: INV-9 } }',
    method: 'POST',
    path: `${C}/21/entities`,
    body: 'shape',
    changes: createChanges,
  },
  {
    name: 'update by key',
    uses: 'classes/update',
    with: '{ class: 12, id: 2001, fields: { iname: x } }',
    method: 'PATCH',
    path: `${C}/12/entities/2001`,
    body: 'shape',
    effect: (s) =>
      holds(
        s.entities.find((e) => e.ikey === 2001),
        UPDATE_BY_KEY,
      ),
    changes: entityChanges(12, 2001, UPDATE_BY_KEY),
  },
  {
    name: 'update by name',
    uses: 'classes/update',
    with: '{ class: 12, id: jdoe, fields: { iemailaddress: new@example.com } }',
    method: 'PATCH',
    path: `${C}/12/entities/jdoe`,
    body: 'shape',
    effect: (s) => holds(byName(s, 12, 'jdoe'), UPDATE_BY_NAME),
    changes: entityChanges(12, 2001, UPDATE_BY_NAME),
  },
  {
    name: 'delete by key',
    uses: 'classes/delete',
    with: '{ class: 12, id: 2002 }',
    method: 'DELETE',
    path: `${C}/12/entities/2002`,
    body: 'json',
    // The entity the call named is gone (not one inserted again under its key since).
    effect: (s) => !s.entities.some((e) => e.ikey === 2002),
    changes: entityChanges(12, 2002),
  },
  {
    name: 'delete by name',
    uses: 'classes/delete',
    with: '{ class: 12, id: asmith }',
    method: 'DELETE',
    path: `${C}/12/entities/asmith`,
    body: 'json',
    effect: (s) => !s.entities.some((e) => e.ikey === 2002),
    changes: entityChanges(12, 2002),
  },
  {
    name: 'add (a code the run made)',
    uses: 'licensing/add',
    before: `  - id: code\n    uses: licensing/create\n    with: ${CREATE_CRM}\n`,
    with: '{ code: "${{ steps.code.outputs.code }}" }',
    method: 'POST',
    path: `${L}/licenses`,
    body: 'none',
    effect: crmHeld,
    changes: licenseChanges,
  },
  {
    name: 'add (a code given)',
    uses: 'licensing/add',
    with: `{ code: "${CRM_CODE}" }`,
    method: 'POST',
    path: `${L}/licenses`,
    body: 'none',
    effect: crmHeld,
    changes: licenseChanges,
  },
  {
    name: 'remove',
    uses: 'licensing/remove',
    with: '{ key: 2 }',
    method: 'DELETE',
    path: `${L}/licenses/2`,
    body: 'none',
    effect: (s) => !s.licenses.some((l) => l.productKey === 2),
    changes: licenseChanges,
  },
  {
    name: 'system update',
    uses: 'update/system',
    with: '{ target: prod, source: { server: main-db.example.com, database: MAIN, token: main-token } }',
    method: 'POST',
    path: '/api/devops/v1/update/system',
    body: 'shape',
    // Every Engine of the target that reports runs the release.
    effect: (s) =>
      s.engines.filter((e) => e.mainDatabase === 'PROD' && e.reporting).every((e) => e.version === s.release.engine),
    changes: systemChanges,
  },
];
