// A decision written to the run's journal in the store: its records (the decisions of its in-doubt
// calls and the `decide` record) appended as one group, so one segment, create-only: all of it is
// recorded or none. A segment another command put since this one read the journal (another
// decide, recorded first) is refused as that: DECISION_REFUSED, exit 2, nothing of this one kept.
// A decision on a value decided before replaces it, and says which.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { JournalFile } from '../journal/file.ts';
import { readStoredJournal } from '../journal/replica.ts';
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

export async function recordDecision(
  stored: StoredRun,
  key: string | undefined,
  records: readonly JournalRecord[],
): Promise<void> {
  const read = readFileSync(stored.path, 'utf8');
  const opened = JournalFile.open(stored.path, `enginectl decide --run ${stored.runId}`, { mustExist: true, key });
  let failure: unknown;
  try {
    opened.file.replicateTo(stored.replica);
    // Appended in one turn: one group, one segment.
    await Promise.all(records.map((r) => opened.file.append(r, true)));
    const unsettled = await opened.file.settle();
    if (unsettled)
      throw new UsageError('DECISION_REFUSED', `the decision could not be written to the store: ${unsettled}`, {
        hint: 'check the run store and decide again',
      });
  } catch (error) {
    failure = error;
  } finally {
    opened.file.close();
  }
  if (failure === undefined) return;
  if (failure instanceof UsageError) throw failure;
  const now = await readStoredJournal(stored.store, stored.runId).catch(() => undefined);
  if (now && now.text !== read)
    throw new UsageError(
      'DECISION_REFUSED',
      `run ${stored.runId}: another decision was recorded first (or a runner went on with the run) since this decide read it: nothing of this one was recorded`,
      {
        hint: `enginectl decide --store URL --run ${stored.runId} lists what is decided now; decide again on that`,
      },
    );
  throw failure;
}
