// The contract read twice: by the client (its request schemas in src/api/schemas, its scope table
// in src/api/scopes.ts) and by the emulator (src/emulator/request-bodies.ts and scopes.ts, served
// on 127.0.0.1). Each body of a table goes through both, each operation is called by users who
// lack one scope; any disagreement fails, with the body and both verdicts. Where two readings
// differ one is wrong: enterprise-api.md decides which, and that side is fixed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import { LicenseCreateRequest, SystemUpdateOptions, VfsUpdateOptions } from '../../src/api/schemas/index.ts';
import { ALL_SCOPES as CLIENT_SCOPES, requiredScopes } from '../../src/api/scopes.ts';
import { ALL_SCOPES as EMULATOR_SCOPES } from '../../src/emulator/scopes.ts';
import { startEmulator } from '../helpers/emulator.ts';
import { BODY_CASES, OPERATIONS, type Operation } from './two-readings-cases.ts';

const SCHEMAS: Record<Operation, z.ZodType> = {
  system: SystemUpdateOptions,
  vfs: VfsUpdateOptions,
  create: LicenseCreateRequest,
};
const PATHS: Record<Operation, string> = {
  system: '/api/devops/v1/update/system',
  vfs: '/api/devops/v1/update/vfs',
  create: '/api/licensing/v1/licenses/create',
};
/** The emulator's answer when its reading of the body refuses it (any other 400 is its state's). */
const REFUSED: Record<Operation, string> = {
  system: 'the update options are not valid',
  vfs: 'the update options are not valid',
  create: 'the license request is not valid',
};

/** "accepted", or "refused:" and the fields named, each once, in order. */
const verdict = (fields: string[] | undefined) =>
  fields === undefined ? 'accepted' : `refused: ${[...new Set(fields)].sort().join(', ')}`;

/** The client's schema on a body, its issues as fields (a path `licenses[0].type`, `(body)` for the body). */
function clientVerdict(op: Operation, body: unknown): string {
  const parsed = SCHEMAS[op].safeParse(body);
  if (parsed.success) return verdict(undefined);
  return verdict(
    parsed.error.issues.flatMap((issue) => {
      const base = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
      const field = base.replace(/^\./, '');
      if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => (field ? `${field}.${k}` : k));
      return [field || '(body)'];
    }),
  );
}

const basic = (user: string) => `Basic ${Buffer.from(`${user}:pw`).toString('base64')}`;

test('each request body of the table gets the same verdict from the client schema and the emulator', async (t) => {
  const { url } = await startEmulator(t);
  const disagreements: string[] = [];
  for (const { op, what, body } of BODY_CASES) {
    const res = await fetch(`${url}${PATHS[op]}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const answer = JSON.parse(res.headers.get('content-type')?.startsWith('application/json') ? text : '{}') as {
      message?: string;
      details?: { field: string }[];
    };
    let emulator: string;
    if (res.status === 200) emulator = verdict(undefined);
    else if (res.status === 400 && answer.message === REFUSED[op])
      emulator = verdict(answer.details!.map((d) => d.field));
    else emulator = `answered ${res.status}, not by its reading of the body: ${text}`;
    const client = clientVerdict(op, body);
    if (client !== emulator)
      disagreements.push(`${op} (${what}) ${JSON.stringify(body)}\n    client:   ${client}\n    emulator: ${emulator}`);
  }
  assert.ok(BODY_CASES.length > 150, 'the table is the one of two-readings-cases.ts');
  assert.equal(disagreements.length, 0, `\n${disagreements.join('\n')}`);
});

test('each operation is refused (403) by both readings to a user who lacks a scope it requires, and only then', async (t) => {
  const scopes = [...new Set([...CLIENT_SCOPES, ...EMULATOR_SCOPES])];
  assert.deepEqual([...EMULATOR_SCOPES].sort(), [...CLIENT_SCOPES].sort(), 'the scopes each side knows');
  const users = [
    { name: 'none', password: 'pw', scopes: new Set<string>() },
    ...scopes.map((s) => ({ name: `without-${s}`, password: 'pw', scopes: new Set(scopes.filter((x) => x !== s)) })),
  ];
  const { url } = await startEmulator(t, { users });
  const disagreements: string[] = [];
  for (const { method, path } of OPERATIONS) {
    const client = [...requiredScopes(path)].sort();
    const call = async (user: string) => {
      const res = await fetch(`${url}${path}`, { method, headers: { authorization: basic(user) } });
      const body = (await res.json().catch(() => ({}))) as { details?: { field: string; message: string }[] };
      return { forbidden: res.status === 403, missing: (body.details ?? []).map((d) => d.message).sort() };
    };
    // A user with no scope: the 403 names every scope the operation requires, none when it is not refused.
    const none = await call('none');
    const emulator = none.forbidden ? none.missing : [];
    if (JSON.stringify(client) !== JSON.stringify(emulator))
      disagreements.push(
        `${method} ${path} (user with no scope)\n    client:   requires ${client.join(', ') || 'none'}\n    emulator: requires ${emulator.join(', ') || 'none'}`,
      );
    for (const scope of scopes) {
      const answer = await call(`without-${scope}`);
      const clientRefuses = client.includes(scope);
      if (answer.forbidden !== clientRefuses || (answer.forbidden && answer.missing.join() !== scope))
        disagreements.push(
          `${method} ${path} (user with every scope but ${scope})\n    client:   ${clientRefuses ? `403 for ${scope}` : 'not refused'}\n    emulator: ${answer.forbidden ? `403 for ${answer.missing.join(', ')}` : 'not refused'}`,
        );
    }
  }
  assert.ok(OPERATIONS.length >= 36, 'every operation of enterprise-api.md 4.1 to 4.4');
  assert.equal(disagreements.length, 0, `\n${disagreements.join('\n')}`);
});
