// An Engine's start: it runs, and from then reports, the version last installed on it (a system
// update installs the release on every Engine of its target, but only an Engine started since runs
// it: enterprise-api.md 2.12 disableEngineRestart).
import type { EngineRecord } from './state.ts';

/** Starts (or restarts) `engine` at `now` on the version installed on it. */
export function startEngine(engine: EngineRecord, now: number): void {
  if (engine.pendingVersion !== undefined) engine.version = engine.pendingVersion;
  delete engine.pendingVersion;
  engine.startedAt = now;
}
