// What monitoring shows of the Engines (api 1 and 8.1: monitoring data is not real-time, refreshed
// about every 2 minutes): an Engine a system update changed, its version and start as the last
// refresh read them, until the next refresh; an alert raised on an Engine (the raise-alert fault),
// from the next refresh after it was raised. The update changes an Engine it restarts at once (its
// own report and a second update see it), and the alert is in the state from when it is raised; a
// check straight after reads the old version and no alert, as on a real server, so a pipeline that
// forgets to wait for the refresh fails here first. A state set or changed by the emulator's own
// hand (a test's, a state file) is what monitoring reads at once.
import type { EmulatorState, EngineRecord } from './state.ts';

/** How often monitoring data is refreshed. */
export const REFRESH_MS = 2 * 60_000;

type Shown = Pick<EngineRecord, 'version' | 'startedAt'>;
type Alert = EmulatorState['alerts'][number];

export class EngineView {
  private readonly held = new Map<string, Shown & { until: number }>();
  /** Alerts the API raised, each with the refresh that first reads it. */
  private alertsFrom = new WeakMap<Alert, number>();

  constructor(private readonly refreshMs = REFRESH_MS) {}

  /**
   * The refresh that first reads a change made at `at`: the next one after it (one at a refresh's
   * very instant comes after that refresh's reading, as a request answered then does); 0: at once.
   */
  private readAt(at: number): number {
    return this.refreshMs === 0 ? at : at - (at % this.refreshMs) + this.refreshMs;
  }

  /** Before the API changes `engine` at `now`: monitoring shows it as it is until the next refresh. */
  changing(engine: EngineRecord, now: number): void {
    const earlier = this.held.get(engine.instanceId);
    // Changed twice between two refreshes: the last refresh read it before the first change.
    if (this.refreshMs === 0 || (earlier && now < earlier.until)) return;
    this.held.set(engine.instanceId, { version: engine.version, startedAt: engine.startedAt, until: this.readAt(now) });
  }

  /** `alert`, in the state, raised at `at` (not by hand): monitoring lists it from the next refresh. */
  raised(alert: Alert, at: number): void {
    this.alertsFrom.set(alert, this.readAt(at));
  }

  /** A state set in place of the last: monitoring reads it as it is. */
  forget(): void {
    this.held.clear();
    this.alertsFrom = new WeakMap();
  }

  /** An Engine as monitoring shows it at `now`. */
  of(engine: EngineRecord, now: number): Shown {
    const held = this.held.get(engine.instanceId);
    // Only the two fields: the whole record would bring the emulator's own controls (reporting) into the answer.
    return held && now < held.until
      ? { version: held.version, startedAt: held.startedAt }
      : { version: engine.version, startedAt: engine.startedAt };
  }

  /** Whether monitoring lists `alert` at `now`: one set by hand at once, one raised from the refresh that reads it. */
  lists(alert: Alert, now: number): boolean {
    return now >= (this.alertsFrom.get(alert) ?? now);
  }
}
