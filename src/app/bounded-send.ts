// A write leaves within a bound of its record (journal/send-bound.ts), or not at all: the journal's
// observer, once the write's record is written, refuses to let it leave when that took longer
// than the bound (a store answering late, a runner paused while the record was put), and the run
// stops. The write is then in doubt in the journal, and verify, which counts from the record's
// time plus the bound, decides it on resume; sent later, it would have outrun that count.
import { formatDuration } from '../duration.ts';
import { JournalWriteError } from '../journal/file.ts';
import { SEND_WITHIN_MS } from '../journal/send-bound.ts';
import type { RunObserver } from '../runner/observer.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

export function boundedSend(
  observer: RunObserver,
  /** Steady time (the run's stopwatch), not the run's clock, which a simulated run moves at its waits. */
  stopwatch: () => number,
  stop: (error: JournalWriteError) => void,
  /** How the surface names the resume its hint gives (the CLI's flags by default). */
  ways: WaysOn = CLI_WAYS,
): RunObserver {
  return {
    ...observer,
    async sending(run, call) {
      const at = stopwatch();
      await observer.sending(run, call);
      const took = stopwatch() - at;
      if (took <= SEND_WITHIN_MS) return;
      const error = new JournalWriteError(
        `the record of ${call.method} ${call.path} took ${formatDuration(took)} to be written, longer than the ${formatDuration(SEND_WITHIN_MS)} a write may be handed to the network after its record: it was not sent`,
        {
          hint: `resume the run (${ways.resumeRun}) once the journal is written promptly again: verify decides the write, counting from its record`,
        },
      );
      stop(error);
      throw error;
    },
  };
}
