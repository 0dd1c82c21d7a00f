// A run that goes on with a stored run (run --continue or --resume from a store, the action's
// continue) with no fleet lease holds the run's own lease, `run.ID`: what says a runner holds the
// run (app/stored-run-held.ts), so `decide` refuses it (JOURNAL_LOCKED) until the run parks again
// or ends, rather than write in the middle of its journal. Taken first, before the journal is read
// and anything in doubt is verified or decided: a call another runner of the run has in flight is
// not in doubt, and reading it as not applied would send it twice. Taken only when its last record
// was released or lapsed (a runner killed by SIGKILL: its 2-minute ttl is the price), never from a
// live runner, not even one of the same run: a second continue is refused (JOURNAL_LOCKED, saying
// when the hold lapses). Renewed every third of its ttl and released at the end, on SIGTERM and
// SIGINT too (the run ends through its finally). Not shown in the reports: it is no fleet lease.
import { UsageError } from '../errors.ts';
import { LeaseError } from '../store/lease.ts';
import { takeLease, type LeaseRequest } from './lease-setup.ts';

/** How long the own lease of a runner that stopped without releasing it keeps decide refused. */
export const OWN_LEASE_TTL_MS = 2 * 60_000;

export const ownLeaseName = (runId: string) => `run.${runId}`;

export interface OwnLease {
  lease: { check(): Promise<void>; stillHeld(): Promise<void> };
  end(options?: { keep?: boolean }): Promise<void>;
}

export async function takeOwnLease(request: Omit<LeaseRequest, 'lease' | 'takeOver' | 'sameRun'>): Promise<OwnLease> {
  const taken = await takeLease({
    ...request,
    lease: { name: ownLeaseName(request.runId), ttlMs: OWN_LEASE_TTL_MS, waitMs: 0 },
    sameRun: true,
  }).catch((error: unknown) => {
    // Held by a live runner of this run: its journal is in use, as a JOURNAL file's lock says.
    if (error instanceof LeaseError && error.code === 'LEASE_HELD')
      throw new UsageError('JOURNAL_LOCKED', error.message, { hint: error.hint, cause: error });
    throw error;
  });
  return {
    lease: { check: () => taken.lease.check(), stillHeld: () => taken.lease.stillHeld() },
    end: () => taken.end(),
  };
}
