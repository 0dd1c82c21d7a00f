// Time in tests without the machine's speed in it: a timer the test fires itself (a step's or a
// call's time limit runs out when the test says, once the call it bounds has reached the server),
// and a wait for something to happen that has no time bound of its own (the suite's --test-timeout
// is the guard against a hang).
import type { Timer } from '../../src/api/deadline.ts';

export interface ManualTimer {
  timer: Timer;
  /** The limits set and not yet fired or cancelled, in milliseconds. */
  pending(): number[];
  /** Runs out every pending limit; returns how many there were. */
  fire(): number;
}

export function manualTimer(): ManualTimer {
  const pending = new Map<object, { fire: () => void; ms: number }>();
  return {
    timer: (fire, ms) => {
      const key = {};
      pending.set(key, { fire, ms });
      return () => pending.delete(key);
    },
    pending: () => [...pending.values()].map((p) => p.ms),
    fire: () => {
      const due = [...pending.values()];
      pending.clear();
      for (const p of due) p.fire();
      return due.length;
    },
  };
}

/** Resolves once `condition` holds, checking between turns of the event loop. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
