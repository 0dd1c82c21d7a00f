// A decision written to the run's journal in the store: its records (the decisions of its in-doubt
// calls and the `decide` record) appended as one group, so one segment, create-only: all of it is
// recorded or none. A segment another command put since this one read the journal (another
// decide, recorded first) is refused as that: DECISION_REFUSED, exit 2, nothing of this one kept.
// A write whose fate is unknown (S3 answered 5xx, and the read-back failed) is settled by reading
// that segment again: this decide's own bytes there, it was recorded (exit 0); a store that cannot
// be read then, whether it was cannot be told, and is said (STORE_FAILED, exit 1).
// A decision on a value decided before replaces it, and says which.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { JournalFile } from '../journal/file.ts';
import { journalPrefix } from '../journal/replica.ts';
import { keysAfterListing, sequenceKey, StoreError } from '../store/store.ts';
import type { JournalRecord } from '../journal/records.ts';
import type { Parked } from './parked.ts';
import type { StoredRun } from './stored-run.ts';

/** The evidence of a decision on `value` that replaces an earlier one: what it replaces, in words. */
export function supersedes(parked: Parked, value: string | undefined): string[] {
  const earlier = value === undefined ? undefined : parked.decided.findLast((d) => d.value === value);
  return earlier
    ? [
        `replaces the earlier decision: ${earlier.decision} ${value} (${earlier.by}, ${new Date(earlier.at).toISOString()}${earlier.reason ? `: ${earlier.reason}` : ''})`,
      ]
    : [];
}

/**
 * The segment `n` of the run's journal as the store holds it now; undefined when there is none yet.
 * Not listed, it is read by name: a listing may lag the keys just created (keysAfterListing).
 */
async function segmentNow(stored: StoredRun, n: number): Promise<Buffer | undefined> {
  const key = `${journalPrefix(stored.runId)}${sequenceKey(n)}`;
  if (!(await stored.store.list(journalPrefix(stored.runId))).includes(key))
    return (await keysAfterListing(stored.store, journalPrefix(stored.runId), n))[0];
  return stored.store.get(key);
}

export async function recordDecision(
  stored: StoredRun,
  key: string | undefined,
  records: readonly JournalRecord[],
): Promise<void> {
  const read = readFileSync(stored.path);
  // The segment this decision goes in: the first put since this decide read the journal.
  const first = stored.replica.position;
  const opened = JournalFile.open(stored.path, `enginectl decide --run ${stored.runId}`, {
    mustExist: true,
    key,
    // Refused (sealed, and no key here): the stored run named, not its copy in TMPDIR.
    name: `${stored.store.url} run ${stored.runId}`,
    undone: 'nothing was recorded',
  });
  let failure: unknown;
  let unsettled: string | undefined;
  try {
    opened.file.replicateTo(stored.replica);
    // Appended in one turn: one group, one segment.
    await Promise.all(records.map((r) => opened.file.append(r, true)));
    unsettled = await opened.file.settle();
    if (unsettled)
      failure = new UsageError('DECISION_REFUSED', `the decision could not be written to the store: ${unsettled}`, {
        hint: 'check the run store and decide again',
      });
  } catch (error) {
    failure = error;
  } finally {
    opened.file.close();
  }
  if (failure === undefined) return;
  if (failure instanceof UsageError && unsettled === undefined) throw failure;
  // The write failed, maybe after the store wrote it (an answer lost, its read-back failed too): what
  // the store holds now says. This decide's own bytes there: recorded. Another segment: another
  // decision (or a runner) came first. None: not there now, though a write that timed out on this
  // side (an S3 PUT) may still land later: said so, with how to look before deciding again.
  const pushed = readFileSync(stored.path).subarray(read.length);
  let landed: Buffer | undefined;
  try {
    landed = await segmentNow(stored, first);
  } catch (error) {
    throw new StoreError(
      'STORE_FAILED',
      `run ${stored.runId}: cannot tell whether the decision was recorded: the store failed as it was written (${(failure as Error).message}), and cannot be read now (${(error as Error).message})`,
      {
        cause: failure,
        hint: `once the store answers, enginectl decide --store URL --run ${stored.runId} lists what is decided (and enginectl report --store URL --run ${stored.runId}): decide again only if it is not there`,
      },
    );
  }
  if (landed === undefined) {
    const message = `run ${stored.runId}: the decision could not be written to the store (${unsettled ?? (failure as Error).message}), and is not found in the store now; a write that timed out may still land later`;
    const hint = `look again with enginectl decide --store URL --run ${stored.runId} (it lists what is decided) before deciding again: decide again only if this decision is not there`;
    if (failure instanceof UsageError) throw new UsageError('DECISION_REFUSED', message, { hint });
    if (failure instanceof StoreError)
      throw new StoreError(failure.code as ConstructorParameters<typeof StoreError>[0], message, {
        cause: failure,
        hint,
      });
    throw failure;
  }
  if (pushed.length > 0 && landed.equals(pushed)) return;
  throw new UsageError(
    'DECISION_REFUSED',
    `run ${stored.runId}: another decision was recorded first (or a runner went on with the run) since this decide read it: nothing of this one was recorded`,
    {
      hint: `enginectl decide --store URL --run ${stored.runId} lists what is decided now; decide again on that`,
    },
  );
}
