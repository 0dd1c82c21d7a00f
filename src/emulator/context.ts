// What route handlers see of the emulator: its current state, its clock and the calling user.
import type { EmulatorState } from './state.ts';
import type { User } from './users.ts';
import type { EngineView } from './engine-view.ts';

export interface RouteContext {
  readonly state: EmulatorState;
  now(): number;
  /** The authenticated user of the request being handled. */
  readonly user: User;
  /** The Engines as monitoring shows them: as the last refresh read them. */
  readonly engines: EngineView;
}
