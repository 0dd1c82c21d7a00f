// The inputs of update/system and update/vfs, and their mapping to the API's option bodies
// (enterprise-api.md 2.12, 2.13): kebab-case inputs -> camelCase fields.
import { z } from 'zod';
import { SYSTEM_UPDATE_FLAGS, VFS_UPDATE_FLAGS } from '../api/schemas/devops.ts';
import { credentialObject, intKey, listOf, listValues } from './inputs.ts';
import type { TargetDef, Wrap } from './types.ts';

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export const connectionSchema = (w: Wrap) =>
  z.strictObject({
    server: w(z.string().min(1)).describe('the database server, as the API names it (targetServer or sourceServer)'),
    database: w(z.string().min(1)).describe('the database (targetDBName or sourceDBName)'),
    token: w(z.string()).optional().describe('its token; or username and password (write ${{ secrets.NAME }})'),
    username: w(z.string()).optional().describe('its user name, with password, instead of a token'),
    password: w(z.string()).optional().describe('its password (write ${{ secrets.NAME }})'),
  });

/** The credentials among the inputs (an inline target or source). */
export const UPDATE_SECRET_INPUTS = ['target.token', 'target.password', 'source.token', 'source.password'] as const;

function flags(w: Wrap, names: readonly string[]) {
  return Object.fromEntries(names.map((n) => [kebab(n), w(z.boolean()).optional()]));
}

function common(w: Wrap, flagNames: readonly string[]) {
  return {
    // A target's credentials are checked (pipeline/targets-check.ts), a source's are not.
    target: z.union([w(z.string().min(1)), credentialObject(connectionSchema(w))]),
    source: connectionSchema(w).optional(),
    'update-type': w(intKey).optional(),
    recipients: w(listOf(z.string())).optional(),
    message: w(z.string()).optional(),
    'tracking-id': w(z.string()).optional(),
    'online-index-drop': z.unknown().optional(),
    'online-index-creation': z.unknown().optional(),
    ...flags(w, flagNames),
  };
}

export const systemUpdateInputs = (w: Wrap) =>
  z.strictObject({ ...common(w, SYSTEM_UPDATE_FLAGS), products: w(listOf(intKey)).optional() });

export const vfsUpdateInputs = (w: Wrap) =>
  z
    .strictObject({
      ...common(w, VFS_UPDATE_FLAGS),
      files: w(listOf(intKey)).optional(),
      directories: w(listOf(z.string())).optional(),
    })
    // An empty list ([] or "") names nothing: the API refuses the update (400). An expression's list is known at run time.
    .refine((i) => given(i.files) || given(i.directories), {
      message: 'update/vfs needs files or directories (at least one of them, with at least one value)',
      path: ['files'],
      when: (payload) => typeof payload.value === 'object' && payload.value !== null,
    });

/** An input given with a value: a list of at least one (as an array, or a string of values as listOf reads it), or an expression. */
const given = (v: unknown) =>
  typeof v === 'string'
    ? v.includes('${{') || listValues(v).length > 0
    : v !== undefined && (!Array.isArray(v) || v.length > 0);

export type UpdateInputs = Record<string, unknown> & {
  target: string | TargetDef;
  source?: TargetDef | undefined;
  files?: number[] | undefined;
  directories?: string[] | undefined;
  products?: number[] | undefined;
  recipients?: string[] | undefined;
};

export function targetOf(input: string | TargetDef, targets: Readonly<Record<string, TargetDef>>): TargetDef {
  if (typeof input !== 'string') return input;
  const found = Object.hasOwn(targets, input) ? targets[input] : undefined;
  if (!found) throw new Error(`unknown target ${input}; targets are ${Object.keys(targets).join(', ') || 'none'}`);
  return found;
}

/** Inputs named otherwise in the body. */
const FIELDS: readonly (readonly [string, string])[] = [
  ['update-type', 'updateType'],
  ['message', 'messageComplement'],
  ['tracking-id', 'trackingId'],
  ['online-index-drop', 'onlineIndexDrop'],
  ['online-index-creation', 'onlineIndexCreation'],
];

/** Each flag of a list with its input's name, made once per list (not at every instance of a fleet). */
const flagInputsOf = new WeakMap<readonly string[], (readonly [string, string])[]>();

function flagInputs(flagNames: readonly string[]): (readonly [string, string])[] {
  let pairs = flagInputsOf.get(flagNames);
  if (!pairs) flagInputsOf.set(flagNames, (pairs = flagNames.map((flag) => [flag, kebab(flag)] as const)));
  return pairs;
}

/** The request body of an update. */
export function updateBody(
  inputs: UpdateInputs,
  targets: Readonly<Record<string, TargetDef>>,
  flagNames: readonly string[],
): Record<string, unknown> {
  const target = targetOf(inputs.target, targets);
  const body: Record<string, unknown> = { targetDBName: target.database, targetServer: target.server };
  if (target.token) body.targetAuthToken = target.token;
  else {
    body.targetUserName = target.username;
    body.targetPassword = target.password;
  }
  if (inputs.source) {
    body.sourceServer = inputs.source.server;
    body.sourceDBName = inputs.source.database;
    if (inputs.source.token) body.sourceAuthToken = inputs.source.token;
    else {
      body.sourceUserName = inputs.source.username;
      body.sourcePassword = inputs.source.password;
    }
  }
  for (const [input, field] of FIELDS) if (inputs[input] !== undefined) body[field] = inputs[input];
  if (inputs.recipients) body.recipients = inputs.recipients.join(';');
  for (const [flag, input] of flagInputs(flagNames)) if (inputs[input] !== undefined) body[flag] = inputs[input];
  for (const list of ['products', 'files', 'directories'] as const)
    if (inputs[list] !== undefined) body[list] = inputs[list];
  return body;
}
