// The typed client of the enterprise API.
export { EngineClient, type ServerConfig, type ClientDeps, type RawRequest, type RawResponse } from './client.ts';
export { ApiError, unreachable, type ApiErrorCode } from './errors.ts';
export {
  attemptFate,
  joinFates,
  stepDoubt,
  doubtCall,
  type Attempt,
  type AttemptEvidence,
  type AttemptFate,
  type InstanceFate,
} from './fate.ts';
export { deadline, type Deadline } from './deadline.ts';
export type { ClockSeen } from './server-clock.ts';
export { farOff, offWords, SKEW_SAID_MS } from './server-clock.ts';
export type { SyncOutcome } from './devops.ts';
export type { CallOptions, CallSpec } from './call.ts';
export { planned, PLACEHOLDER_LICENSE_CODE, type PlannedCall } from './recording.ts';
export { DEFAULT_TIMEOUT_MS, type CallObserver, type SentCall } from './transport.ts';
export * from './schemas/index.ts';
