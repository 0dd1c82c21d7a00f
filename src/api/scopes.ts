// Authorization scopes per API area (enterprise-api.md section 5). Shared by the client, to say
// which scope a 403 is about, and by the emulator, to enforce them: one table, no drift.
import { API_BASE } from './areas.ts';

export const Scope = {
  licensing: 'api.licensing',
  monitoring: 'api.monitoring',
  devops: 'api.devops',
  clearTransactionLog: 'system.clearTransactionLog',
} as const;

export const ALL_SCOPES: readonly string[] = Object.values(Scope);

export const CLEAR_TRANSACTION_LOG_PATH = `${API_BASE.devops}/transaction-log/clear`;

/** An area's paths in every version: `/api/licensing/v1` -> `/api/licensing/`. */
const area = (base: string) => base.slice(0, base.lastIndexOf('/') + 1);

/**
 * Scopes a call to `path` requires. The Classes area names no scope ("not shown"): any
 * authenticated user may call it, in the emulator as in this client.
 */
export function requiredScopes(path: string): string[] {
  if (path.startsWith(area(API_BASE.licensing))) return [Scope.licensing];
  if (path.startsWith(area(API_BASE.monitoring))) return [Scope.monitoring];
  if (path === CLEAR_TRANSACTION_LOG_PATH) return [Scope.devops, Scope.clearTransactionLog];
  if (path.startsWith(area(API_BASE.devops))) return [Scope.devops];
  return [];
}
