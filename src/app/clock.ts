// The clocks of a run: the real one, and the simulated one of `run --emulator`, where waits
// (gates polling every 2 minutes, retry delays) pass at once and move a shared clock forward,
// which the embedded emulator reads too: a demo that drains sessions for 30 simulated minutes
// ends in milliseconds. The real one is steady: it never goes back; windows and freezes are judged
// on it at the later of its time and the wall clock (schedule/window-time.ts).
import { performance } from 'node:perf_hooks';
import { sleep } from '../api/retry.ts';

export interface Clock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * The real clock's only: the later of now() and the wall clock, the time windows and freezes are
   * judged at (schedule/window-time.ts). A simulated clock's time is unrelated to the wall clock's.
   */
  latest?: (() => number) | undefined;
}

/** `real`: the time it moves with besides its waits (the wall clock; a test's may stand still). */
export function simulatedClock(start?: number, real: () => number = Date.now): Clock & { advanced(): number } {
  const origin = real();
  let offset = (start ?? origin) - origin;
  let advanced = 0;
  return {
    now: () => real() + offset,
    advanced: () => advanced,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        offset += ms;
        advanced += ms;
        setImmediate(resolve);
      }),
  };
}

/**
 * Epoch milliseconds that never go back: the wall clock when the process started, then the
 * monotonic clock's time since. A wall clock set back (NTP correcting a CI machine, an operator)
 * during a run moves no duration, deadline or wait of the run; its timestamps stay within that
 * correction of the wall clock. A suspend of the machine is not counted (on Linux the monotonic
 * clock stands still meanwhile): windows are judged at `latest` for it. Whole milliseconds, as
 * Date.now gives them.
 */
export function steadyNow(): number {
  return Math.floor(performance.timeOrigin + performance.now());
}

/**
 * The later of the steady time and the wall clock. On Linux the monotonic clock does not advance
 * while the machine is suspended, so after a suspend the steady time lags the wall clock by the
 * suspend's length: a window is judged at the wall clock then, never in the past.
 */
function latest(): number {
  return Math.max(steadyNow(), Date.now());
}

export function realClock(): Clock {
  return { now: steadyNow, sleep, latest };
}
