// Authorization scopes per API area (enterprise-api.md section 5). Shared by the client, to say
// which scope a 403 is about, and by the emulator, to enforce them: one table, no drift.

export const Scope = {
  licensing: 'api.licensing',
  monitoring: 'api.monitoring',
  devops: 'api.devops',
  clearTransactionLog: 'system.clearTransactionLog',
} as const;

export const ALL_SCOPES: readonly string[] = Object.values(Scope);

export const CLEAR_TRANSACTION_LOG_PATH = '/api/devops/v1/transaction-log/clear';

/**
 * Scopes a call to `path` requires. The Classes area names no scope ("not shown"): any
 * authenticated user may call it, in the emulator as in this client.
 */
export function requiredScopes(path: string): string[] {
  if (path.startsWith('/api/licensing/')) return [Scope.licensing];
  if (path.startsWith('/api/monitoring/')) return [Scope.monitoring];
  if (path === CLEAR_TRANSACTION_LOG_PATH) return [Scope.devops, Scope.clearTransactionLog];
  if (path.startsWith('/api/devops/')) return [Scope.devops];
  return [];
}
