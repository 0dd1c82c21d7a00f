// What monitoring shows of an Engine a system update changed: its version and start as the last
// refresh read them, until the next refresh (api 1 and 8.1: monitoring data is not real-time,
// refreshed about every 2 minutes). The update changes an Engine it restarts at once (its own report and a
// second update see it); a check straight after it reads the old version, as on a real server, so
// a pipeline that forgets to wait for the refresh fails here first. A state set or changed by the
// emulator's own hand (a test's, a state file) is what monitoring reads at once.
import type { EngineRecord } from './state.ts';

/** How often monitoring data is refreshed. */
export const REFRESH_MS = 2 * 60_000;

type Shown = Pick<EngineRecord, 'version' | 'startedAt'>;

export class EngineView {
  private readonly held = new Map<string, Shown & { until: number }>();

  constructor(private readonly refreshMs = REFRESH_MS) {}

  /** Before the API changes `engine` at `now`: monitoring shows it as it is until the next refresh. */
  changing(engine: EngineRecord, now: number): void {
    const earlier = this.held.get(engine.instanceId);
    // Changed twice between two refreshes: the last refresh read it before the first change.
    if (this.refreshMs === 0 || (earlier && now < earlier.until)) return;
    const until = now - (now % this.refreshMs) + this.refreshMs;
    this.held.set(engine.instanceId, { version: engine.version, startedAt: engine.startedAt, until });
  }

  /** A state set in place of the last: monitoring reads it as it is. */
  forget(): void {
    this.held.clear();
  }

  /** An Engine as monitoring shows it at `now`. */
  of(engine: EngineRecord, now: number): Shown {
    const held = this.held.get(engine.instanceId);
    // Only the two fields: the whole record would bring the emulator's own controls (reporting) into the answer.
    return held && now < held.until
      ? { version: held.version, startedAt: held.startedAt }
      : { version: engine.version, startedAt: engine.startedAt };
  }
}
