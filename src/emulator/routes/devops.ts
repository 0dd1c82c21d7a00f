// DevOps area routes (enterprise-api.md 4.4): the transaction-log clear here; replication and
// updates in their own files.
import { CLEAR_TRANSACTION_LOG_PATH } from '../../api/scopes.ts';
import type { RouteContext } from '../context.ts';
import { empty } from '../http.ts';
import type { Router } from '../router.ts';
import { replicationRoutes } from './replication.ts';
import { updateRoutes } from './updates.ts';

export function devopsRoutes(router: Router, ctx: () => RouteContext): void {
  // "Only the status is specified": 200 with no body. The emulator's log-cleanup configuration
  // keeps nothing, so the log is emptied.
  router.on(
    'POST',
    CLEAR_TRANSACTION_LOG_PATH,
    () => {
      ctx().state.iLog = [];
      return empty(200);
    },
    { body: false },
  );
  replicationRoutes(router, ctx);
  updateRoutes(router, ctx);
}
