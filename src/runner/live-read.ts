// A read-only step run for real by the live plan (plan --live), in a plan's env (plan-env.ts):
// its gate checked once, never waited for. What it finds now: it holds (with its figures), it
// would wait (and for what, as the gate said it: WouldWait), or it fails now (and why: its server
// could not be reached, or what it found). Its client sends GET requests only, whatever the step
// or the server does.
import { unreachable, type EngineClient } from '../api/index.ts';
import type { EvalScope } from '../expr/index.ts';
import type { Observed } from '../steps/observed.ts';
import type { StepType, TargetDef } from '../steps/types.ts';
import type { Masker } from './masker.ts';
import { learnAnswer } from './answer-secrets.ts';
import { planEnv, WouldWait } from './plan-env.ts';

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
  const env = planEnv({
    client: world.client,
    targets: world.targets,
    now: world.now,
    signal: world.signal,
    secret: (v) => masker.add(v),
    evaluate: (expression) => expression.evaluate(world.scope),
  });
  try {
    const outcome = await type.run(inputs, env);
    // Its answer's credentials are secrets from here on: the plan shows what later steps compute from them (answer-secrets.ts).
    learnAnswer(masker, [outcome.outputs, outcome.result], `an answer of ${type.uses}`);
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
      return {
        state: 'would-wait',
        text: masker.mask(`${error.waiting.what}: ${error.waiting.state}`),
        outputs: {},
      };
    return {
      state: 'fails-now',
      text: masker.mask((error as Error).message),
      outputs: {},
      ...(unreachable(error) ? { unreachable: true as const } : {}),
    };
  }
}
