// The local copy of a stored run's journal that a command lays in the temporary directory when it
// is given no --journal (app/stored-run.ts: a resume's copy of the store's journal, a new run's file):
// removed when the command ends, however it ends (gone on, refused, interrupted), once the store holds
// every record of it. Kept only when it holds the only copy of some (the store could not take them,
// said by the run): a --journal file given is the user's, never removed.
import { rmSync } from 'node:fs';

export interface LocalCopy {
  /** The copy laid for this command; undefined while none was, or with --journal F. */
  path?: string | undefined;
  /** It holds records the store does not: left for the operator. */
  keep?: boolean | undefined;
}

/** The copy removed, unless it is to be kept. */
export function dropLocalCopy(copy: LocalCopy): void {
  if (copy.path !== undefined && !copy.keep) rmSync(copy.path, { force: true });
}
