// A run that goes on with a stored run (run --continue or --resume from a store, the action's
// continue) with no fleet lease holds the run's own lease, `run.ID`, while it runs: what says a
// runner holds the run (app/stored-run-held.ts), so `decide` refuses it (JOURNAL_LOCKED) until the
// run parks again or ends, rather than write in the middle of its journal. Taken once the runner
// goes on (not by a continue that parks again at once), at once even from an earlier runner of
// the same run (one killed, whose lease has not lapsed: its journal's fence stops it if it is only
// paused), renewed every third of its ttl and released at the end. Not shown in the reports: it is
// no fleet lease.
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
  });
  return {
    lease: { check: () => taken.lease.check(), stillHeld: () => taken.lease.stillHeld() },
    end: () => taken.end(),
  };
}
