// A run's lease as a fence: the journal's observer checks it before each write leaves, and a run
// whose journal the store refused while its lease was lost says that loss.
import type { RunObserver } from '../runner/observer.ts';
import { LeaseError } from '../store/lease.ts';

/**
 * The journal's observer, fenced by the lease: before each write's record, the lease is checked to
 * be this run's still (read from the store); once the record is written, and before the write
 * leaves, its expiry is checked again on this runner's clock. A run that lost it sends nothing
 * more and stops, every report written. The second check is what a runner paused while its record
 * was being put needs: woken after its lease lapsed and another runner took its run over (verify
 * proving the write not applied, and sending it), it must not send the write as well.
 */
export function fenced(
  observer: RunObserver,
  lease: { check(): Promise<void>; stillHeld(): Promise<void> } | undefined,
  stop: (error: LeaseError) => void,
): RunObserver {
  if (!lease) return observer;
  const guard = async (check: () => Promise<void>) => {
    try {
      await check();
    } catch (error) {
      if (error instanceof LeaseError) stop(error);
      throw error;
    }
  };
  return {
    ...observer,
    async sending(run, call) {
      await guard(() => lease.check());
      await observer.sending(run, call);
      await guard(() => lease.stillHeld());
    },
  };
}

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
