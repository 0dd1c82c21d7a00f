// A write that does not fit its window, in a run with a run store: the run parks until the next
// window it fits in (pipeline-format.md, Windows and freezes), as a rollout parks for a bake
// (park.ts): a `park` record `for: window` with `until` the next fit, exit 75. Nothing after it
// starts (the instances in flight end); `run --continue` carries what was done and judges the
// write again at its own time: before `until` it parks again (the wait counted from the first
// park), at or after it the write goes out.
import { undecidedDoubts, type StepError, type StepRun } from './result.ts';
import type { Park } from './rollout-result.ts';
import type { RunContext } from './run-context.ts';
import { finish } from './instance-end.ts';
import { CLI_WAYS } from '../ways-on.ts';
import { windowTime } from '../schedule/window-time.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The park of a write that fits from `next`: the run's (the first one kept), and the write's error. */
export function parkForWindow(ctx: RunContext, run: StepRun, next: number, why: string): StepError {
  const earlier = ctx.resume?.parked?.park;
  // On the clock admission judged the window on (schedule/window-time.ts): a continue counts the wait from it.
  const since = earlier?.for === 'window' ? earlier.since : windowTime(ctx.deps);
  const reason = `the next window "${run.name}" fits in, at ${iso(next)}`;
  const park: Park = {
    wave: run.wave ?? 0,
    for: 'window',
    since,
    until: next,
    reason,
    write: run.key,
    waits: [
      {
        value: null,
        what: reason,
        evidence: [`${run.name}: ${why}`, `waiting since ${iso(since)} on the run's clock`],
      },
    ],
  };
  const held = ctx.windowPark;
  const ways = ctx.deps.ways ?? CLI_WAYS;
  // Instances in flight at once may each park: the run goes on at the earliest of their windows.
  if (!held.park || next < held.park.until!) held.park = park;
  return {
    code: 'WINDOW_PARKED',
    // The instance's own words hold whatever the wave comes to: a failure beside it halts the
    // rollout or parks it for a decision instead (rollout.ts), and its end record is written now.
    message: `not started: ${why}; the next window it fits in opens at ${iso(next)}`,
    hint: `when the run parked for it (${ways.parkedSignal}), a scheduled job goes on with ${ways.continueParked('RUN')}${undecidedDoubts([run]).length ? ` ${ways.inDoubt('skip or retry')} (its call in doubt: check on the server first)` : ''} at or after then`,
  };
}

/** An instance after the run parked for a window: not started, picked up by the continue. */
export function parkedBefore(ctx: RunContext, run: StepRun, position: string): void {
  const park = ctx.windowPark.park!;
  finish(ctx, run, position, 'cancelled', {
    code: 'WINDOW_PARKED',
    message: `not started: a write before it waits for ${park.reason}`,
  });
}
