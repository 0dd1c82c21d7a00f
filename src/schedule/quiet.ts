// "When the users are out": a window with `quiet:` admits a write only while no application
// session is on the server's Engines but those it excepts (by userName or applicationName), or
// whose drop is due within `dropping-within`. Pure: the sessions and the instant are given.
import type { Schedule } from './schedule.ts';
import type { QuietSpec } from './quiet-spec.ts';

/** What a session shows that quiet reads (the Monitoring API's ApplicationSessionInfo). */
export interface SessionView {
  sessionId: string;
  engineId?: string | undefined;
  userName?: string | undefined;
  applicationName?: string | undefined;
  /** When its drop is due: epoch ms, or an ISO 8601 text (the contract shows no type); null when none was requested. */
  dropsAt?: unknown;
}

/** The quiet of every window holding `t` that asks for one (a write starting then must meet each). */
export function quietAt(s: Schedule, t: number): QuietSpec[] {
  return s.windows.flatMap((w) => (w.quiet && w.intervals.holding(t) ? [w.quiet] : []));
}

/** A session's drop time as epoch ms, when it has one the runner can read. */
export function dropTime(dropsAt: unknown): number | undefined {
  if (typeof dropsAt === 'number' && Number.isFinite(dropsAt)) return dropsAt;
  if (typeof dropsAt === 'string' && dropsAt.trim() !== '') {
    const ms = /^\d+$/.test(dropsAt) ? Number(dropsAt) : Date.parse(dropsAt);
    return Number.isFinite(ms) ? ms : undefined;
  }
  return undefined;
}

/** Whether one quiet lets a session stay: excepted by name, or its drop due within dropping-within. */
function excused(q: QuietSpec, s: SessionView, now: number): boolean {
  if (q.except.some((name) => name === s.userName || name === s.applicationName)) return true;
  const drops = dropTime(s.dropsAt);
  return q.droppingWithinMs !== undefined && drops !== undefined && drops <= now + q.droppingWithinMs;
}

/** The sessions that keep the application from being quiet at `now`: none when it is. */
export function staying<S extends SessionView>(sessions: readonly S[], quiets: readonly QuietSpec[], now: number): S[] {
  return sessions.filter((s) => quiets.some((q) => !excused(q, s, now)));
}

/** "jdoe (ERP Desktop) on eng-prod-01": a session for a person. */
export function describeSession(s: SessionView): string {
  const drops = dropTime(s.dropsAt);
  return `${s.userName ?? s.sessionId}${s.applicationName ? ` (${s.applicationName})` : ''}${s.engineId ? ` on ${s.engineId}` : ''}${drops === undefined ? '' : `, dropping at ${new Date(drops).toISOString()}`}`;
}
