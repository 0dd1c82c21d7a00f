// Monitoring area routes (enterprise-api.md 4.3). A reporting Engine's data is refreshed every
// 2 minutes (its updatedAt is the last refresh; its version and start as that refresh read them,
// and an alert the API raised from the refresh after it, engine-view.ts); an Engine is listed only
// while its updatedAt is within 5 minutes. Sessions past their expiresAt, or past their dropsAt (a drop requested), are gone.
import type { RouteContext } from '../context.ts';
import { json, notFound } from '../http.ts';
import type { Router } from '../router.ts';
import type { EngineRecord } from '../state.ts';
import { API_BASE } from '../../api/areas.ts';
import { REFRESH_MS } from '../engine-view.ts';

const BASE = API_BASE.monitoring;
export { REFRESH_MS };
export const ONLINE_MS = 5 * 60_000;

export function lastUpdate(engine: EngineRecord, now: number): number {
  if (!engine.reporting) return engine.updatedAt;
  return Math.max(engine.updatedAt, now - (now % REFRESH_MS));
}

export function isOnline(engine: EngineRecord, now: number): boolean {
  return now - lastUpdate(engine, now) <= ONLINE_MS;
}

function liveSessions(ctx: RouteContext, engineId?: string) {
  const now = ctx.now();
  return ctx.state.sessions.filter(
    (s) => s.expiresAt > now && !dropped(s, now) && (engineId === undefined || s.engineId === engineId),
  );
}

/** A session whose drop was requested is gone at its dropsAt (epoch ms in this emulator; the contract shows no type). */
function dropped(session: Record<string, unknown>, now: number): boolean {
  return typeof session.dropsAt === 'number' && session.dropsAt <= now;
}

function alertsOf(ctx: RouteContext, engineId?: string) {
  const now = ctx.now();
  return ctx.state.alerts.filter(
    (a) => (engineId === undefined || a.engineId === engineId) && ctx.engines.lists(a, now),
  );
}

function engineInfo(ctx: RouteContext, engine: EngineRecord) {
  const { reporting: _reporting, pendingVersion: _pending, ...info } = engine;
  return {
    ...info,
    ...ctx.engines.of(engine, ctx.now()),
    updatedAt: lastUpdate(engine, ctx.now()),
    applicationSessions: liveSessions(ctx, engine.instanceId),
    alerts: alertsOf(ctx, engine.instanceId),
  };
}

function engine(ctx: RouteContext, id: string): EngineRecord {
  const found = ctx.state.engines.find((e) => e.instanceId === id);
  if (!found) throw notFound(`no Engine with id ${id}`);
  return found;
}

export function monitoringRoutes(router: Router, ctx: () => RouteContext): void {
  router
    .on('GET', `${BASE}/engines`, () => {
      const c = ctx();
      return json(
        200,
        c.state.engines.filter((e) => isOnline(e, c.now())).map((e) => engineInfo(c, e)),
      );
    })
    .on('GET', `${BASE}/engines/{engineId}`, (_req, p) => json(200, engineInfo(ctx(), engine(ctx(), p.engineId!))))
    .on('GET', `${BASE}/engines/{engineId}/sessions`, (_req, p) =>
      json(200, liveSessions(ctx(), engine(ctx(), p.engineId!).instanceId)),
    )
    .on('GET', `${BASE}/engines/{engineId}/sessions/{sessionId}`, (_req, p) => {
      const e = engine(ctx(), p.engineId!);
      const found = liveSessions(ctx(), e.instanceId).find((s) => s.sessionId === p.sessionId);
      if (!found) throw notFound(`no session ${p.sessionId} on Engine ${e.instanceId}`);
      return json(200, found);
    })
    .on('GET', `${BASE}/engines/{engineId}/alerts`, (_req, p) =>
      json(200, alertsOf(ctx(), engine(ctx(), p.engineId!).instanceId)),
    )
    .on('GET', `${BASE}/sessions`, () => json(200, liveSessions(ctx())))
    .on('GET', `${BASE}/sessions/{sessionId}`, (_req, p) => {
      const found = liveSessions(ctx()).find((s) => s.sessionId === p.sessionId);
      if (!found) throw notFound(`no session ${p.sessionId}`);
      return json(200, found);
    })
    .on('GET', `${BASE}/alerts`, () => json(200, alertsOf(ctx())));
}
