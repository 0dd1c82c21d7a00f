// Going on with a stored run (run --resume/--continue, the action) once its journal was read into
// the run and its leases are held: the journal is fenced first (its next segment, create-only), so
// a segment put since the read is found before anything is sent.
import { DecidedMeanwhile, decidedMeanwhile } from './decided-meanwhile.ts';
import { fenceStoredRun, type StoredRun } from './stored-run.ts';

/**
 * `fenceToGoOn`, once the journal was read into the run (run --resume/--continue, the action), its lease held: a
 * segment put since is refused (a decision as that: decided-meanwhile.ts), the journal closed, the lease given back;
 * a fleet lease the park kept (`keepParked`) stays kept while a decision recorded meanwhile leaves the run parked.
 */
export async function fenceToGoOn(
  stored: StoredRun | undefined,
  journal: { spec: { file: { close(): void } } } | undefined,
  taken: { end(options?: { keep: boolean }): Promise<unknown> } | undefined,
  keepParked: boolean,
): Promise<void> {
  if (!taken || !stored?.resume) return;
  await fenceStoredRun(stored, 1).catch(async (error: unknown) => {
    journal?.spec.file.close();
    const decided = await decidedMeanwhile(stored);
    await taken.end({ keep: keepParked && decided instanceof DecidedMeanwhile });
    throw decided ?? error;
  });
}
