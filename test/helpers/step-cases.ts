// One case of every step type (a write of each kind among them): its inputs as YAML, the call it
// makes first, and what it needs of a 2xx answer. The fault matrix and the write-fate tests walk
// them; a new step type is added here.
import { sealLicenses } from '../../src/emulator/license-code.ts';

export interface StepCase {
  uses: string;
  with: string;
  /** The call the fault is put on (the step's first call). */
  method: string;
  path: string;
  /** What the step needs of a 2xx body: its resource's shape, any JSON, or nothing (only the status). */
  body: 'shape' | 'json' | 'none';
  /** Another call the step makes alongside the faulted one (licensing/check asks for products too). */
  alongside?: string;
}

const D = '/api/devops/v1';
const CODE = sealLicenses({ licenseVersion: 1, licenses: [] });

export const STEP_CASES: StepCase[] = [
  { uses: 'transaction-log/clear', with: '{}', method: 'POST', path: `${D}/transaction-log/clear`, body: 'none' },
  {
    uses: 'replication/sync',
    with: '{ config: 1 }',
    method: 'POST',
    path: `${D}/replication/configs/1/sync`,
    body: 'shape',
  },
  { uses: 'update/system', with: '{ target: prod }', method: 'POST', path: `${D}/update/system`, body: 'shape' },
  {
    uses: 'update/vfs',
    with: '{ target: prod, files: [1001] }',
    method: 'POST',
    path: `${D}/update/vfs`,
    body: 'shape',
  },
  {
    uses: 'monitoring/engines',
    with: '{ min-online: 1 }',
    method: 'GET',
    path: '/api/monitoring/v1/engines',
    body: 'shape',
  },
  {
    uses: 'monitoring/alerts',
    with: '{ fail-on: critical }',
    method: 'GET',
    path: '/api/monitoring/v1/alerts',
    body: 'shape',
  },
  { uses: 'monitoring/sessions', with: '{}', method: 'GET', path: '/api/monitoring/v1/sessions', body: 'shape' },
  {
    uses: 'licensing/create',
    with: '{ licensee-id: A-1, licensee-name: ACME, expiration: "2030-01-31", licenses: [{ product: 3, quantity: 9, type: P }] }',
    method: 'POST',
    path: '/api/licensing/v1/licenses/create',
    body: 'shape',
  },
  {
    uses: 'licensing/add',
    with: `{ code: "${CODE}" }`,
    method: 'POST',
    path: '/api/licensing/v1/licenses',
    body: 'none',
  },
  {
    uses: 'licensing/remove',
    with: '{ key: 2 }',
    method: 'DELETE',
    path: '/api/licensing/v1/licenses/2',
    body: 'none',
  },
  {
    uses: 'licensing/check',
    with: '{ product: 1 }',
    method: 'GET',
    path: '/api/licensing/v1/licenses',
    body: 'shape',
    alongside: 'GET /api/licensing/v1/products',
  },
  { uses: 'classes/get', with: '{ id: 2001 }', method: 'GET', path: '/api/classes/v1/entities/2001', body: 'shape' },
  {
    uses: 'classes/query',
    with: '{ class: 12, where: { iname: jdoe } }',
    method: 'GET',
    path: '/api/classes/v1/classes/12/entities',
    body: 'shape',
  },
  {
    uses: 'classes/create',
    with: '{ class: 21, fields: { iname: INV-9 } }',
    method: 'POST',
    path: '/api/classes/v1/classes/21/entities',
    body: 'shape',
  },
  {
    uses: 'classes/update',
    with: '{ class: 12, id: 2001, fields: { iname: x } }',
    method: 'PATCH',
    path: '/api/classes/v1/classes/12/entities/2001',
    body: 'shape',
  },
  {
    uses: 'classes/delete',
    with: '{ class: 12, id: 2002 }',
    method: 'DELETE',
    path: '/api/classes/v1/classes/12/entities/2002',
    body: 'json',
  },
  {
    uses: 'api/request',
    with: '{ path: /api/monitoring/v1/alerts }',
    method: 'GET',
    path: '/api/monitoring/v1/alerts',
    body: 'none',
  },
  {
    uses: 'api/request',
    with: `{ method: POST, path: ${D}/transaction-log/clear }`,
    method: 'POST',
    path: `${D}/transaction-log/clear`,
    body: 'none',
  },
];
