// Emulator users and HTTP Basic authentication. Defaults (pipeline-format.md section 3):
// admin/admin with every scope, monitor/monitor with api.monitoring only.
import { timingSafeEqual } from 'node:crypto';
import { ALL_SCOPES, SCOPE } from './scopes.ts';
import { UsageError } from '../errors.ts';

export interface User {
  name: string;
  password: string;
  scopes: ReadonlySet<string>;
}

export function defaultUsers(): User[] {
  return [
    { name: 'admin', password: 'admin', scopes: new Set(ALL_SCOPES) },
    { name: 'monitor', password: 'monitor', scopes: new Set([SCOPE.monitoring]) },
  ];
}

/** `NAME:PASSWORD:SCOPE,SCOPE` (the `--user` flag). `*` grants every scope; no scopes is allowed. */
export function parseUserSpec(spec: string): User {
  const first = spec.indexOf(':');
  const last = spec.lastIndexOf(':');
  if (first <= 0 || last === first) {
    throw new UsageError('BAD_USER_SPEC', `--user "${spec.split(':')[0]}:…" is not NAME:PASSWORD:SCOPES`, {
      hint: 'write --user deploy:s3cret:api.devops,system.clearTransactionLog (use * for every scope, nothing after the last colon for none)',
    });
  }
  const scopes = spec
    .slice(last + 1)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => s !== '*' && !ALL_SCOPES.includes(s));
  if (unknown.length > 0) {
    throw new UsageError('BAD_USER_SPEC', `--user ${spec.slice(0, first)}: unknown scope ${unknown.join(', ')}`, {
      hint: `scopes are ${ALL_SCOPES.join(', ')} or *`,
    });
  }
  return {
    name: spec.slice(0, first),
    password: spec.slice(first + 1, last),
    scopes: new Set(scopes.includes('*') ? ALL_SCOPES : scopes),
  };
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The user an Authorization header proves, or undefined. */
export function authenticate(header: string | undefined, users: readonly User[]): User | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const name = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return users.find((u) => u.name === name && same(u.password, password));
}
