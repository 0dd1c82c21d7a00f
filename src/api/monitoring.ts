// Monitoring area (enterprise-api.md 4.3). Data is refreshed about every 2 minutes; only Engines
// that reported within 5 minutes are listed.
import { z } from 'zod';
import type { Caller, CallOptions } from './call.ts';
import { ApplicationSessionInfo, EngineAlert, EngineInfo } from './schemas/index.ts';

const BASE = '/api/monitoring/v1';
const seg = encodeURIComponent;

export class MonitoringApi {
  constructor(private readonly call: Caller) {}

  engines(options?: CallOptions): Promise<EngineInfo[]> {
    return this.call.json({ method: 'GET', path: `${BASE}/engines` }, z.array(EngineInfo), options);
  }

  engine(engineId: string, options?: CallOptions): Promise<EngineInfo> {
    return this.call.json({ method: 'GET', path: `${BASE}/engines/${seg(engineId)}`, resource: `Engine ${engineId}` }, EngineInfo, options);
  }

  engineSessions(engineId: string, options?: CallOptions): Promise<ApplicationSessionInfo[]> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/engines/${seg(engineId)}/sessions`, resource: `Engine ${engineId}` },
      z.array(ApplicationSessionInfo),
      options,
    );
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
    return this.call.json(
      { method: 'GET', path: `${BASE}/engines/${seg(engineId)}/alerts`, resource: `Engine ${engineId}` },
      z.array(EngineAlert),
      options,
    );
  }

  sessions(options?: CallOptions): Promise<ApplicationSessionInfo[]> {
    return this.call.json({ method: 'GET', path: `${BASE}/sessions` }, z.array(ApplicationSessionInfo), options);
  }

  session(sessionId: string, options?: CallOptions): Promise<ApplicationSessionInfo> {
    return this.call.json(
      { method: 'GET', path: `${BASE}/sessions/${seg(sessionId)}`, resource: `session ${sessionId}` },
      ApplicationSessionInfo,
      options,
    );
  }

  alerts(options?: CallOptions): Promise<EngineAlert[]> {
    return this.call.json({ method: 'GET', path: `${BASE}/alerts` }, z.array(EngineAlert), options);
  }
}
