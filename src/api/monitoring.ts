// Monitoring area (enterprise-api.md 4.3). Data is refreshed about every 2 minutes; only Engines
// that reported within 5 minutes are listed.
import { z } from 'zod';
import type { Caller, CallOptions, CallSpec } from './call.ts';
import { ApplicationSessionInfo, EngineAlert, EngineInfo } from './schemas/index.ts';
import { API_BASE } from './areas.ts';

const BASE = API_BASE.monitoring;
/** The lists answers hold, built once (a schema built per call cost as much again as its parse). */
const EngineList = z.array(EngineInfo);
const SessionList = z.array(ApplicationSessionInfo);
const AlertList = z.array(EngineAlert);
/**
 * What verify reads of the Engines (who runs which version on which database), checked and kept
 * alone: a write's snapshot is taken before every system update of a fleet, and the whole Engine
 * (an 8 KiB answer for four Engines) checked and copied field by field cost more than the call.
 */
const EngineVersionList = z.array(
  z.object({
    instanceId: z.string(),
    version: z.string(),
    mainDatabase: z.string().optional(),
    updatedAt: z.number().optional(),
  }),
);
export type EngineVersion = z.infer<typeof EngineVersionList>[number];
const seg = encodeURIComponent;

/** The calls of the area that steps make, as values the client sends. */
export const monitoringCalls = {
  engines: (): CallSpec => ({ method: 'GET', path: `${BASE}/engines` }),
  engine: (engineId: string): CallSpec => ({
    method: 'GET',
    path: `${BASE}/engines/${seg(engineId)}`,
    resource: `Engine ${engineId}`,
  }),
  engineSessions: (engineId: string): CallSpec => ({
    method: 'GET',
    path: `${BASE}/engines/${seg(engineId)}/sessions`,
    resource: `Engine ${engineId}`,
  }),
  engineAlerts: (engineId: string): CallSpec => ({
    method: 'GET',
    path: `${BASE}/engines/${seg(engineId)}/alerts`,
    resource: `Engine ${engineId}`,
  }),
  sessions: (): CallSpec => ({ method: 'GET', path: `${BASE}/sessions` }),
  alerts: (): CallSpec => ({ method: 'GET', path: `${BASE}/alerts` }),
};

export class MonitoringApi {
  constructor(private readonly call: Caller) {}

  engines(options?: CallOptions): Promise<EngineInfo[]> {
    return this.call.json(monitoringCalls.engines(), EngineList, options);
  }

  /** The Engines' identities, versions and databases only: what verify reads back. */
  engineVersions(options?: CallOptions): Promise<EngineVersion[]> {
    return this.call.json(monitoringCalls.engines(), EngineVersionList, options);
  }

  /** The Engines' versions, with when the server answered by its own clock (its Date header; NaN without one). */
  async engineVersionsDated(options?: CallOptions): Promise<{ engines: EngineVersion[]; date: number }> {
    const { body, date } = await this.call.dated(monitoringCalls.engines(), EngineVersionList, options);
    return { engines: body, date };
  }

  engine(engineId: string, options?: CallOptions): Promise<EngineInfo> {
    return this.call.json(monitoringCalls.engine(engineId), EngineInfo, options);
  }

  /** One Engine, with when the server answered by its own clock (its Date header; NaN without one). */
  async engineDated(engineId: string, options?: CallOptions): Promise<{ engine: EngineInfo; date: number }> {
    const { body, date } = await this.call.dated(monitoringCalls.engine(engineId), EngineInfo, options);
    return { engine: body, date };
  }

  engineSessions(engineId: string, options?: CallOptions): Promise<ApplicationSessionInfo[]> {
    return this.call.json(monitoringCalls.engineSessions(engineId), SessionList, options);
  }

  engineSession(engineId: string, sessionId: string, options?: CallOptions): Promise<ApplicationSessionInfo> {
    return this.call.json(
      {
        method: 'GET',
        path: `${BASE}/engines/${seg(engineId)}/sessions/${seg(sessionId)}`,
        resource: `Engine ${engineId} or its session ${sessionId}`,
      },
      ApplicationSessionInfo,
      options,
    );
  }

  engineAlerts(engineId: string, options?: CallOptions): Promise<EngineAlert[]> {
    return this.call.json(monitoringCalls.engineAlerts(engineId), AlertList, options);
  }

  sessions(options?: CallOptions): Promise<ApplicationSessionInfo[]> {
    return this.call.json(monitoringCalls.sessions(), SessionList, options);
  }

  session(sessionId: string, options?: CallOptions): Promise<ApplicationSessionInfo> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/sessions/${seg(sessionId)}`, resource: `session ${sessionId}` },
      ApplicationSessionInfo,
      options,
    );
  }

  alerts(options?: CallOptions): Promise<EngineAlert[]> {
    return this.call.json(monitoringCalls.alerts(), AlertList, options);
  }
}
