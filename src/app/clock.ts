// The clocks of a run: the real one, and the simulated one of `run --emulator`, where waits
// (gates polling every 2 minutes, retry delays) pass at once and move a shared clock forward,
// which the embedded emulator reads too: a demo that drains sessions for 30 simulated minutes
// ends in milliseconds.
import { sleep } from '../api/retry.ts';

export interface Clock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export function simulatedClock(start = Date.now()): Clock & { advanced(): number } {
  const origin = Date.now();
  let offset = start - origin;
  let advanced = 0;
  return {
    now: () => Date.now() + offset,
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

export function realClock(): Clock {
  return { now: Date.now, sleep };
}
