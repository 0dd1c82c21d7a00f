import { sleep } from '../api/retry.ts';

// The clock of `run --emulator`: waits (gates polling every 2 minutes, retry delays) pass at once
// and move a shared clock forward, which the embedded emulator reads too. A demo that drains
// sessions for 30 simulated minutes ends in milliseconds.

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
