// The plan, dry or live, as the edges show it: `plan` and `run --dry-run` (dry: every call the
// pipeline would make, resolved as far as possible, secrets masked; no request), `plan --live`,
// the preflight and the actions' dry-run input (live: GET requests only), as text and per step.
import type { WaysOn } from '../ways-on.ts';
import type { Selection } from '../pipeline/selection.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { renderPlan, renderWaves, renderWindows } from '../report/plan-text.ts';
import { Masker } from '../runner/masker.ts';
import { maskPlanned } from '../runner/mask-model.ts';
import { planPipeline, type LiveReading, type PlannedStep } from '../runner/plan.ts';
import type { Env } from '../runner/scope.ts';
import type { RunnerDeps } from '../runner/run-context.ts';
import type { PlannedCall } from '../steps/types.ts';
import { clientFactory } from './clients.ts';

export interface PlanOutput {
  /** The pipeline's name, resolved. */
  name: string;
  /** The calls, one step instance after another. */
  text: string;
  /** plan --live: how many instances fail now, and how many would wait. */
  failsNow: number;
  wouldWait: number;
  /** Each instance as planned (masked), for a saved plan. */
  steps: PlannedStep[];
}

export interface LiveOptions {
  signal: AbortSignal;
  /** The clock the read-only steps read (a gate's time, a window): the run's, passed in. */
  now: () => number;
  /** Every server is the embedded emulator at this URL (plan --live --emulator). */
  emulatorUrl?: string | undefined;
}

/**
 * The plan. `live`: the read-only steps are run for real, once and without waiting, through
 * clients that send GET requests only (plan --live); every write is shown and not sent.
 */
export async function makePlan(
  pipeline: Pipeline,
  env: Env,
  options: {
    selection?: Selection;
    masker?: Masker;
    live?: LiveOptions;
    ways?: WaysOn | undefined;
    /** Earlier write durations (--history): a window's need, as the run reads it. */
    history?: RunnerDeps['history'];
    /** Hears each write of a live plan with its calls unmasked (app/plan-pins.ts). */
    rawWrites?: Map<string, PlannedCall[]>;
  } = {},
): Promise<PlanOutput> {
  const masker = options.masker ?? new Masker();
  const live: LiveReading | undefined = options.live && {
    clientFor: clientFactory({ env, masker, emulatorUrl: options.live.emulatorUrl, readOnly: true }),
    now: options.live.now,
    signal: options.live.signal,
  };
  const plan = await planPipeline(pipeline, env, {
    selection: options.selection,
    masker,
    live,
    ways: options.ways,
    ...(options.rawWrites ? { rawWrites: options.rawWrites } : {}),
  });
  const count = (state: string) => plan.steps.filter((s) => s.live?.state === state).length;
  return {
    name: plan.name,
    text: masker.mask(
      renderWaves(pipeline, options.selection) +
        renderWindows(pipeline, options.selection, options.live?.now() ?? Date.now(), {
          history: options.history,
          serverOf: (key) => plan.steps.find((p) => p.key === key)?.server,
        }) +
        renderPlan(plan.steps),
    ),
    failsNow: count('fails-now'),
    wouldWait: count('would-wait'),
    steps: maskPlanned(masker, plan.steps),
  };
}
