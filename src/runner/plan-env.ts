// The StepEnv of a plan's walk, dry or live: each step runs its own run(), as in a run, but never
// waits (a gate not met stops at its first check, WouldWait saying what it waits for) and prints
// nothing. The dry plan's client records each call and answers it with a placeholder
// (api/recording.ts): the calls a step makes are the plan's, by construction.
import { EngineClient, type PlannedCall } from '../api/index.ts';
import type { StepEnv, StepType, TargetDef, Waiting } from '../steps/types.ts';

/** Thrown by a plan's env when a gate would wait: what it waits for, typed (never read from a log line). */
export class WouldWait extends Error {
  constructor(readonly waiting: Waiting) {
    super(`would wait for ${waiting.what}: ${waiting.state}`);
  }
}

export interface PlanWorld {
  client: () => EngineClient;
  targets: Readonly<Record<string, TargetDef>>;
  now: () => number;
  signal: AbortSignal;
  secret: StepEnv['secret'];
  evaluate: StepEnv['evaluate'];
}

export function planEnv(world: PlanWorld): StepEnv {
  return {
    client: world.client,
    call: { signal: world.signal },
    signal: world.signal,
    log: { info: () => undefined, warn: () => undefined },
    now: world.now,
    sleep: () => Promise.reject(new Error('a plan does not wait')),
    waitFor: (waiting) => {
      throw new WouldWait(waiting);
    },
    targets: world.targets,
    secret: world.secret,
    evaluate: world.evaluate,
  };
}

/** Where the recording client says it is (it sends nothing): messages of a step name it. */
const NOWHERE = 'http://plan.invalid';

/**
 * The dry plan of one instance: the step run against a recording client, every call recorded and
 * answered by a placeholder, up to a gate's first check. `error`: why the step stopped before it
 * ended (its inputs known only at run time, say); the calls recorded until then are kept.
 */
export async function recordCalls(
  type: StepType,
  inputs: Record<string, unknown>,
  targets: Readonly<Record<string, TargetDef>>,
  signal: AbortSignal,
): Promise<{ calls: PlannedCall[]; error?: Error }> {
  const calls: PlannedCall[] = [];
  const client = new EngineClient({ url: NOWHERE }, { recordInto: calls });
  const env = planEnv({
    client: () => client,
    targets,
    // Nothing the plan shows depends on the time, nor on what a condition finds in placeholders.
    now: () => 0,
    signal,
    secret: () => undefined,
    evaluate: () => undefined,
  });
  try {
    await type.run(inputs, env);
    return { calls };
  } catch (error) {
    if (error instanceof WouldWait) return { calls };
    return { calls, error: error instanceof Error ? error : new Error(String(error)) };
  } finally {
    await client.close();
  }
}
