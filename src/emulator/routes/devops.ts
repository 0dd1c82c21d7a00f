// DevOps area routes (enterprise-api.md 4.4): the transaction-log clear here; replication and
// updates in their own files.
import type { RouteContext } from '../context.ts';
import { empty } from '../http.ts';
import type { Router } from '../router.ts';
import { CLEAR_TRANSACTION_LOG } from '../scopes.ts';
import { replicationRoutes } from './replication.ts';
import { updateRoutes } from './updates.ts';

export function devopsRoutes(router: Router, ctx: () => RouteContext): void {
  // "Only the status is specified": 200 with no body. The emulator's log-cleanup configuration
  // keeps nothing, so the log is emptied.
  router.on(
    CLEAR_TRANSACTION_LOG.method,
    CLEAR_TRANSACTION_LOG.path,
    () => {
      ctx().state.iLog = [];
      return empty(200);
    },
    { body: false },
  );
  replicationRoutes(router, ctx);
  updateRoutes(router, ctx);
}
