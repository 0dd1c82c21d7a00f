// What a run shares between its steps and instances: the world it was given (RunnerDeps), what
// it resolved before the first step, the steps' states so far (the `steps` context) and the
// run's status (for success(), failure(), cancelled()).
import type { Timer } from '../api/deadline.ts';
import type { Selection } from '../pipeline/selection.ts';
import type { EngineClient } from '../api/index.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { TargetDef } from '../steps/types.ts';
import type { Masker } from './masker.ts';
import type { PlannedInstance } from './instance.ts';
import type { RunListener, Told } from './listener.ts';
import type { Outcome, StepRun } from './result.ts';
import type { ResumePlan } from './resume.ts';
import type { Park } from './rollout-result.ts';
import type { OverrideIdentity } from '../schedule/override.ts';
import type { Env, ResolvedServer } from './scope.ts';
import type { WaysOn } from '../ways-on.ts';

export interface RunnerDeps {
  clientFor(server: ResolvedServer): EngineClient;
  env: Env;
  /**
   * Told every event of the run, in order, as one list (listener.ts): the run log (what the
   * runner says), the journal (each instance and each non-idempotent call), the channels.
   */
  listeners: readonly RunListener[];
  /** Aborted on SIGINT/SIGTERM: the call in flight is aborted, the rest cancelled. */
  signal: AbortSignal;
  /** The clock of waits and gates (simulated under --emulator). */
  now(): number;
  /**
   * The real clock's later of `now` and the wall clock, which windows and freezes are judged at
   * (schedule/window-time.ts: `now` lags after the machine was suspended); absent, `now`.
   */
  latest?: (() => number) | undefined;
  /** The clock of timestamps and durations in the result: real time (default: now). */
  stopwatch?: () => number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** The timer of step timeouts: real time, as the calls they bound (tests fire it themselves). */
  timer?: Timer;
  /** How often a long step says it is still running; 60 s by default. */
  heartbeatMs?: number;
  masker?: Masker;
  /** The durations (ms) of a step type's earlier writes at a server, for admission into a window (admission.ts). */
  history?: ((uses: string, server: string | undefined) => readonly number[]) | undefined;
  /** --override-freeze --reason: who (the CI's actor) starts the writes that do not fit their window, and why. */
  windowOverride?: WindowOverride | undefined;
  /** How the surface names the ways on its hints give (the CLI's flags by default, the action's inputs). */
  ways?: WaysOn | undefined;
  /** Told, before the first step, the pipeline's resolved name, the instances it plans and its servers' places (api/called-at.ts: masked, without the user part or a query); the first step starts once it settles. */
  onStart?: (start: RunStart) => void | Promise<void>;
}

/** --override-freeze --reason: who, with the facts of the CI identity the pipeline's rules match, and why. */
export interface WindowOverride {
  by: string;
  reason: string;
  identity: OverrideIdentity;
}

export interface RunStart {
  name: string;
  /** Computed when asked (only a journal records them): every instance's name resolved once more. */
  planned: () => PlannedInstance[];
  servers: Record<string, string>;
}

export interface RunOptions {
  /** --only and --skip: the matrix instances the run is limited to. */
  selection?: Selection;
  /** `--resume`: the instances done in an earlier run, not run again. */
  resume?: ResumePlan;
  /** With a run store: the run may park (a bake longer than this, a decision `on-failure: decide` asks for). */
  park?: { afterMs: number } | undefined;
}

/** An instance of a matrix step as later steps' expressions read it (steps.ID.instances): not the journal's InstanceState. */
export type InstanceContext = Pick<StepRun, 'outcome' | 'outputs'> & { matrix: Record<string, unknown> };

export interface StepState {
  outcome: Outcome;
  outputs: Record<string, unknown>;
  /** A matrix step's instances: each one's matrix values, outcome and outputs (steps.ID.instances). */
  instances?: InstanceContext[];
  /** Those of its instances that failed (steps.ID.failures). */
  failures?: InstanceContext[];
}

export interface RunContext {
  pipeline: Pipeline;
  deps: RunnerDeps;
  /** The listeners of deps, told as one. */
  tell: Told;
  masker: Masker;
  /** env, secrets, vars, pipeline: resolved before the first step. */
  base: Record<string, unknown>;
  targets: Record<string, TargetDef>;
  /** The `steps` context: each step with an id, once it is done. */
  steps: Record<string, StepState>;
  status: { failed: boolean; cancelled: boolean };
  /** The client of a server, opened before the first step. */
  client(server: string | undefined): EngineClient;
  /** The clock of the result's timestamps and durations. */
  watch(): number;
  /** Each finished instance's unmasked outputs, for the steps after it. */
  live: Map<StepRun, Record<string, unknown>>;
  /** --resume: what earlier runs did. */
  resume: ResumePlan | undefined;
  /** --only and --skip: the instances the run is limited to. */
  selection: Selection;
  /** With a run store, the run may park: a wait longer than afterMs, a decision. */
  park?: { afterMs: number } | undefined;
  /**
   * A write that did not fit its window parked the run (admission.ts): shared by every instance
   * (a rollout's values too), so none starts after it; the run ends parked.
   */
  windowPark: {
    park?: Park | undefined;
    /** The wait since the park a continue went on from, counted once. */ counted?: boolean;
  };
}

/** Where a step stands in the file, as the log shows it: `[3/7]`. */
export function stepPosition(ctx: RunContext, step: { index: number }): string {
  return `[${step.index + 1}/${ctx.pipeline.steps.length}]`;
}
