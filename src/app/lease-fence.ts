// A run's lease as a fence: the journal's observer checks it before each write leaves, and a run
// whose journal the store refused while its lease was lost says that loss.
import type { RunObserver } from '../runner/observer.ts';
import { JournalWriteError } from '../journal/file.ts';
import { LeaseError } from '../store/lease.ts';

/**
 * The journal's observer, fenced by the lease: before each write's record, the lease is checked to
 * be this run's still (read from the store); once the record is written, and before the write
 * leaves, it is checked again. A run that lost it sends nothing more and stops, every report
 * written. The second check is what a runner paused while its record was being put needs: woken
 * after its lease lapsed and another runner took its run over (verify proving the write not
 * applied, and sending it), it must not send the write as well. It reads the store again only when
 * the record took long (`READ_AGAIN_AFTER_MS`: time enough to have been paused, and so taken over
 * on a clock ahead of this one); a prompt record needs the expiry alone, on this runner's clock
 * (a lease renewed every third of its ttl cannot lapse, on a clock within the ttl's margin, in so
 * short a time).
 */
export function fenced(
  observer: RunObserver,
  lease: { check(): Promise<void>; stillHeld(): Promise<void> } | undefined,
  /** Steady time (the run's stopwatch), not the run's clock, which a simulated run moves at its waits. */
  stopwatch: () => number,
  stop: (error: LeaseError | JournalWriteError) => void,
): RunObserver {
  if (!lease) return observer;
  return {
    ...observer,
    async sending(run, call) {
      const at = stopwatch();
      try {
        await lease.check();
      } catch (error) {
        if (error instanceof LeaseError) stop(error);
        throw error;
      }
      await observer.sending(run, call);
      try {
        await (stopwatch() - at > READ_AGAIN_AFTER_MS ? lease.check() : lease.stillHeld());
      } catch (error) {
        // The record is written: whatever kept the lease from being read again stops the run, the write in doubt and not sent.
        const why =
          error instanceof LeaseError
            ? error
            : new JournalWriteError(
                `the lease could not be read again before ${call.method} ${call.path} left (${(error as Error).message}): it was not sent`,
                { hint: 'resume the run once the run store answers: verify decides the write', cause: error },
              );
        stop(why);
        throw why;
      }
    },
  };
}

/** A write's record that took longer than this to be written has the lease read again from the store before the write leaves. */
export const READ_AGAIN_AFTER_MS = 1_000;

/**
 * What stopped a run: its journal refused by the store while its lease was lost is that loss (the
 * runner that took the lease went on with the run and fenced its journal: app/stored-run.ts), said
 * as a lease lost, not as a store's failure.
 */
export async function stoppedBy<E>(
  halted: E | LeaseError | undefined,
  lease: { check(): Promise<void> } | undefined,
): Promise<E | LeaseError | undefined> {
  if (!halted || halted instanceof LeaseError || !lease) return halted;
  return lease.check().then(
    () => halted,
    (error: unknown) => (error instanceof LeaseError ? error : halted),
  );
}
