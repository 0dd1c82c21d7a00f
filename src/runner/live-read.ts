// A read-only step run for real by the live plan (plan --live): its gate checked once, never
// waited for. What it finds now: it holds (with its figures), it would wait (and for what), or it
// fails now (and why: its server could not be reached, or what it found). Its client sends GET
// requests only, whatever the step or the server does.
import { unreachable, type EngineClient } from '../api/index.ts';
import type { EvalScope } from '../expr/index.ts';
import type { Observed } from '../steps/observed.ts';
import type { StepEnv, StepType, TargetDef } from '../steps/types.ts';
import type { Masker } from './masker.ts';

export type LiveState = 'holds' | 'would-wait' | 'fails-now';

export interface LiveFinding {
  state: LiveState;
  /** What was found, masked: "4 online", "4 active session(s)", "1 critical alert: ...". */
  text: string;
  /** The step's outputs now, for the steps after it (unmasked: they stay in memory). */
  outputs: Record<string, unknown>;
  /** What decides it (masked), for a saved plan to hold. */
  observed?: Observed;
  /** It fails now because its server could not be reached: nothing was read (a drift audit's own verdict). */
  unreachable?: true;
}

/** Thrown by the live plan's sleep: a gate that would wait stops at its first check. */
class WouldWait extends Error {}

export async function readNow(
  type: StepType,
  inputs: Record<string, unknown>,
  world: {
    client: () => EngineClient;
    targets: Record<string, TargetDef>;
    masker: Masker;
    now: () => number;
    signal: AbortSignal;
    scope: EvalScope;
  },
): Promise<LiveFinding> {
  const { masker } = world;
  let waitingFor: string | undefined;
  const env: StepEnv = {
    client: world.client,
    call: { signal: world.signal },
    signal: world.signal,
    log: {
      // A gate says what it waits for before it sleeps: "waiting for <what>: <state>; next check in 2m".
      info: (m) => (waitingFor = /^waiting for (.*?); next check/.exec(m)?.[1] ?? waitingFor),
      warn: () => undefined,
    },
    now: world.now,
    sleep: () => Promise.reject(new WouldWait()),
    targets: world.targets,
    secret: (v) => masker.add(v),
    evaluate: (expression) => expression.evaluate(world.scope),
  };
  try {
    const outcome = await type.run(inputs, env);
    const observed = type.observed ? { observed: masker.maskValue(type.observed(outcome.outputs, inputs)) } : {};
    if (outcome.failure)
      return {
        state: 'fails-now',
        text: masker.mask(typeof outcome.failure === 'string' ? outcome.failure : outcome.failure.message),
        outputs: outcome.outputs,
        ...observed,
      };
    return { state: 'holds', text: masker.mask(outcome.figures ?? 'holds'), outputs: outcome.outputs, ...observed };
  } catch (error) {
    if (error instanceof WouldWait)
      return { state: 'would-wait', text: masker.mask(waitingFor ?? 'its condition'), outputs: {} };
    return {
      state: 'fails-now',
      text: masker.mask((error as Error).message),
      outputs: {},
      ...(unreachable(error) ? { unreachable: true as const } : {}),
    };
  }
}
