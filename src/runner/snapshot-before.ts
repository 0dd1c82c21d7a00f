// What a write's verifier compares against (enginectl verify, --in-doubt verify): the target read
// once, before the instance's first write leaves, and recorded in the journal ahead of it.
import type { CallObserver } from '../api/index.ts';
import { MASK } from '../text/mask.ts';
import type { Producer, StepType } from '../steps/types.ts';
import type { StepRun } from './result.ts';
import type { RunContext } from './run-context.ts';

/**
 * With a journal: the instance's calls, and what the step's verifier compares against, read once
 * before its first write leaves (a retry's doubt may be the first attempt's) and recorded ahead of
 * it. A read that fails is recorded as such (verify then cannot tell) and never stops the write.
 */
export function snapshotBefore(
  ctx: RunContext,
  type: StepType,
  run: StepRun,
  calls: CallObserver,
  signal: AbortSignal,
  once: { taken: boolean },
): CallObserver {
  const observer = ctx.tell;
  const snapshot = type.verify?.snapshot;
  if (!observer.snapshots || !snapshot) return calls;
  return {
    async sending(call) {
      if (!once.taken) {
        try {
          const value = await snapshot(
            ctx.client(run.server),
            call,
            signal,
            (v) => producerOf(ctx, v),
            (v) => ctx.masker.maskValue(v),
          );
          observer.snapshot(run, { value });
          once.taken = true;
        } catch (error) {
          // Cut (the step's timeout, a stop): nothing recorded, nothing sent; a later attempt reads it.
          if (signal.aborted) throw error;
          once.taken = true;
          observer.snapshot(run, { error: (error as Error).message });
          ctx.tell.warn(
            run,
            ctx.masker.mask(
              `could not read the target before the write (${(error as Error).message}): if its answer is lost, verify cannot decide it`,
            ),
          );
        }
      }
      return calls.sending(call);
    },
    status: (call, status) => calls.status(call, status),
    answered: (call, end) => calls.answered(call, end),
  };
}

/** The earlier instance of the run one of whose outputs (unmasked) is `value`; none for a value masked or empty. */
function producerOf(ctx: RunContext, value: string): Producer | undefined {
  if (value === '' || value.includes(MASK)) return undefined;
  for (const [run, outputs] of ctx.live)
    if (Object.values(outputs).includes(value)) return { uses: run.uses, name: run.name, inputs: run.inputs };
  return undefined;
}
