// The authorization scopes the emulator enforces, written from the contract (enterprise-api.md
// 5.2 and the Scopes column of 4.4; 4.2 and 4.3 "All require scope ..."), not taken from the
// client's table, so a mistake in that one shows as a 403 the client did not expect.
import { API_BASE } from '../api/areas.ts';

export const SCOPE = {
  licensing: 'api.licensing',
  monitoring: 'api.monitoring',
  devops: 'api.devops',
  clearTransactionLog: 'system.clearTransactionLog',
} as const;

/** Every scope the contract names (what `*` and the admin user are granted). */
export const ALL_SCOPES: readonly string[] = Object.values(SCOPE);

/** POST transaction-log/clear (4.4), the one operation that needs a scope besides its area's. */
export const CLEAR_TRANSACTION_LOG = { method: 'POST', path: `${API_BASE.devops}/transaction-log/clear` } as const;

/** 5.2: "Licensing (all operations)", "Monitoring (all operations)", "DevOps (all operations)". */
const AREA_SCOPES: readonly (readonly [string, string])[] = [
  [API_BASE.licensing, SCOPE.licensing],
  [API_BASE.monitoring, SCOPE.monitoring],
  [API_BASE.devops, SCOPE.devops],
];

/**
 * The scopes an operation (a route of the emulator: method and path) requires. The Classes area
 * names none ("Scope required by the Classes area: not shown"): any authenticated user.
 */
export function scopesFor(method: string, path: string): string[] {
  const area = AREA_SCOPES.find(([base]) => path.startsWith(`${base}/`));
  const scopes = area ? [area[1]] : [];
  // "DevOps transaction-log clear, additionally": system.clearTransactionLog.
  if (method === CLEAR_TRANSACTION_LOG.method && path === CLEAR_TRANSACTION_LOG.path)
    scopes.push(SCOPE.clearTransactionLog);
  return scopes;
}
