// What the runner tells as it goes, to one list of listeners: the run log (run-logger.ts, what
// the person watching reads), the journal (observer.ts, what a resume reads) and the publisher's
// channels are listeners, each hearing the events it has a method for. The runner tells the list
// as one (`told`): each event to every listener in order; an event the run waits on (a call's
// record before the call leaves) waits on each, and a listener that throws there keeps the call
// from leaving.
import type { RunObserver } from './observer.ts';
import type { RunLogger } from './run-logger.ts';

export type RunListener = Partial<RunLogger> & Partial<RunObserver>;

/** The list as one listener of every event. */
export interface Told extends RunLogger, Required<RunObserver> {
  /** Some listener keeps what a write's target held before the write (the journal): it is read then. */
  readonly snapshots: boolean;
}

type Method = (...args: never[]) => unknown;

export function told(listeners: readonly RunListener[]): Told {
  const each = (event: keyof RunListener) =>
    listeners.flatMap((l) => {
      const method = l[event] as Method | undefined;
      return method ? [method.bind(l) as (...args: unknown[]) => unknown] : [];
    });
  const all = (event: keyof RunListener) => {
    const fs = each(event);
    return (...args: unknown[]): void => {
      for (const f of fs) f(...args);
    };
  };
  // What the run waits on: each listener in turn; one listener is called as it is (no extra turn).
  const inTurn = (event: keyof RunListener) => {
    const fs = each(event);
    if (fs.length <= 1) return (fs[0] ?? (() => undefined)) as (...args: unknown[]) => Promise<void> | void;
    return async (...args: unknown[]): Promise<void> => {
      for (const f of fs) await f(...args);
    };
  };
  return {
    snapshots: each('snapshot').length > 0,
    stepStarted: all('stepStarted'),
    stepFinished: all('stepFinished'),
    info: all('info'),
    warn: all('warn'),
    instanceStarted: all('instanceStarted'),
    snapshot: all('snapshot'),
    sending: inTurn('sending'),
    status: inTurn('status'),
    answered: inTurn('answered'),
    overridden: inTurn('overridden'),
    settled: async () => {
      for (const f of each('settled')) await f();
    },
    instanceFinished: all('instanceFinished'),
    rolloutHalted: all('rolloutHalted'),
    rolloutDone: all('rolloutDone'),
    rolloutParked: all('rolloutParked'),
  };
}
