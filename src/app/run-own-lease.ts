// Every runner of a stored run (the first run --store, run --continue or --resume from a store,
// the action's, with a fleet lease or without) holds the run's own lease, `run.ID`: what says a
// runner holds the run (app/stored-run-held.ts), so `decide` refuses it (JOURNAL_LOCKED) until the
// run parks again or ends, and so does any other runner of the run, rather than write in the
// middle of its journal. Taken first, before the run's first record, and before the journal is
// read (a resume's is read again from the store once it is held) and anything in doubt verified
// or decided: a call another runner of the run has in flight is not in doubt, and reading it as
// not applied would send it twice. A fleet lease, when the run has one, is taken before it (in one
// order everywhere) and given back if it is refused. Taken only when its last record was released
// or lapsed (a runner killed by SIGKILL: its 2-minute ttl is the price), never from a live runner,
// not even one of the same run: a second runner is refused (JOURNAL_LOCKED, saying when the hold
// lapses). Renewed every third of its ttl and released when the run parks or ends, on SIGTERM and
// SIGINT too (the run ends through its finally). Not shown in the reports: it is no fleet lease.
// A shard worker's site runs are held by the worker's lease (app/shard-site.ts), not by this one:
// a runner of a site's run (run --resume SITE_RUN) is refused (JOURNAL_LOCKED) while that worker's
// lease is live and the site not ended, as verify and decide are (app/stored-run-held.ts), once
// it holds the run's own lease and has read its journal, before anything is verified or sent.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { LeaseError } from '../store/lease.ts';
import { takeLease, type LeaseRequest, type TakenLease } from './lease-setup.ts';
import { readStoredRunAgain, type StoredRun } from './stored-run.ts';
import { OWN_LEASE_TTL_MS, ownLeaseName, refuseWhileRunning } from './stored-run-held.ts';

export { OWN_LEASE_TTL_MS };
import { readJournal } from '../journal/read.ts';
import { journalKey } from '../journal/seal.ts';
import { storedWays } from '../ways-on.ts';

export interface OwnLease {
  lease: { check(): Promise<void>; stillHeld(): Promise<void> };
  end(options?: { keep?: boolean }): Promise<boolean>;
}

/** What a runner of a stored run holds: the run's own lease, and its fleet lease when it has one (its summary in the reports). */
export interface RunHold {
  lease: { check(): Promise<void>; stillHeld(): Promise<void>; summary?(): ReturnType<TakenLease['lease']['summary']> };
  /** The own lease released, the fleet lease released or (keep) kept for the parked run's continue: false when the fleet lease was not (said; the own lease's failure is said alone). */
  end(options?: { keep?: boolean }): Promise<boolean>;
}

type OwnLeaseRequest = Omit<LeaseRequest, 'lease' | 'takeOver' | 'sameRun' | 'store' | 'runId'>;

export async function takeOwnLease(
  request: Omit<LeaseRequest, 'lease' | 'takeOver' | 'sameRun'>,
  ttlMs = OWN_LEASE_TTL_MS,
): Promise<OwnLease> {
  const taken = await takeLease({
    ...request,
    lease: { name: ownLeaseName(request.runId), ttlMs, waitMs: 0 },
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

/**
 * A runner of a stored run takes hold of it (the CLI's run and the action's): its own lease, once
 * its fleet lease (`fleet`) is held; then a resume's journal read again, so that nothing is read or
 * verified from a copy made before. Refused or failed: what it held is given back. Without a
 * store, the fleet lease alone (there is none without a store).
 */
export async function holdStoredRun(
  stored: StoredRun | undefined,
  fleet: TakenLease | undefined,
  request: OwnLeaseRequest,
  /** The fleet lease's ttl, when the runner holds one: the own lease lapses with it (one runner, one liveness). */
  fleetTtlMs?: number,
): Promise<RunHold | undefined> {
  if (!stored) return fleet;
  let own: OwnLease | undefined;
  try {
    own = await takeOwnLease({ ...request, store: stored.store, runId: stored.runId }, fleet ? fleetTtlMs : undefined);
    if (stored.resume) {
      await readStoredRunAgain(stored, request.ways);
      await refuseWhileSiteHeld(stored, request);
    }
  } catch (error) {
    await own?.end();
    await fleet?.end();
    throw error;
  }
  const held = own;
  return {
    lease: {
      async check() {
        await fleet?.lease.check();
        await held.lease.check();
      },
      async stillHeld() {
        await fleet?.lease.stillHeld();
        await held.lease.stillHeld();
      },
      ...(fleet ? { summary: () => fleet.lease.summary() } : {}),
    },
    async end(options) {
      // The own lease first: a runner of this run waiting for the fleet lease finds the run free once it has it.
      // What the run says of its lease is the fleet lease's: the own lease's release failing (said) keeps nothing of it.
      await held.end();
      return (await fleet?.end(options)) ?? true;
    },
  };
}

/** A site of a sharded run whose live worker writes it (its worker lease, not run.ID) is refused: its call in flight is not in doubt. */
async function refuseWhileSiteHeld(stored: StoredRun, request: OwnLeaseRequest): Promise<void> {
  // A record this enginectl cannot read (damaged, a newer one's) is refused here, in the words the
  // run's opening of its journal gives (app/journal-setup.ts), before anything is decided on it.
  const at = stored.replica.at;
  const text = readFileSync(stored.path, 'utf8');
  const state = readJournal(text, `${at.url} run ${at.runId}`, journalKey(request.env), storedWays(at, request.ways));
  const now = request.clock.now();
  await refuseWhileRunning(stored.store, stored.runId, state, 'resume it', now, 'Nothing was verified or sent', {
    sites: true,
    warn: request.say,
    ways: request.ways,
  });
}
