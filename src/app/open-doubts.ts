// A new run on a journal whose last release left a call in doubt: refused, nothing sent.
import { doubtCall } from '../api/index.ts';
import { UsageError } from '../errors.ts';
import type { Framed } from '../journal/frame.ts';
import type { JournalRecord } from '../journal/records.ts';
import { journalState, lineNumbers, parseRecords } from '../journal/read.ts';
import { undecidedInDoubt, type InDoubtInstance } from '../journal/verify.ts';
import type { WaysOn } from '../ways-on.ts';

/**
 * A new run appended to a journal whose last release left a call in doubt would start a new
 * release and send it again with no word from anyone: refused as --resume refuses, until the
 * operator decides it (a resume with --in-doubt, which records the decision) or verifies it.
 */
export function refuseOpenDoubts(framed: Framed, path: string, ways: WaysOn): void {
  if (framed.lines.length === 0) return;
  const records = parseRecords(framed, path, ways);
  const lines = lineNumbers(framed);
  refuseForgottenDoubts(records, path, ways, lines);
  const open = undecidedInDoubt(journalState(records, path, ways, lines));
  if (open.length === 0) return;
  const named = namedCalls(open);
  throw new UsageError(
    'RESUME_REFUSED',
    `journal ${path}: its last run left ${open.length === 1 ? 'a call' : `${open.length} calls`} in doubt: ${named.join(', ')}; a new run on it would send ${open.length === 1 ? 'it' : 'them'} again`,
    {
      hint: `resume it instead (${ways.resumeOf(path)}, with ${ways.inDoubt('verify')} to read the targets back, or ${ways.inDoubt('skip|retry')} once you checked on the server), or give this run a journal of its own; nothing was sent`,
    },
  );
}

/**
 * A fresh run record after a release that left a call in doubt, undecided: no enginectl writes one
 * (a new run on open doubts is refused above), so the file was edited, or joins two journals. Read
 * as it stands, the new release would forget the doubt and a resume send the write again: refused.
 */
export function refuseForgottenDoubts(
  records: JournalRecord[],
  path: string,
  ways: WaysOn,
  /** The line of each record (read.ts lineNumbers), that a refusal names. */
  lines: readonly number[] = [],
): void {
  // Each release but the last, read up to the fresh run record that follows it.
  const fresh = records.flatMap((r, i) => (r.t === 'run' && !r.resume ? [i] : []));
  for (const next of fresh.slice(1)) refuseOpenBefore(records.slice(0, next), path, ways, lines, lines[next]);
}

function refuseOpenBefore(
  earlier: JournalRecord[],
  path: string,
  ways: WaysOn,
  lines: readonly number[],
  line: number | undefined,
): void {
  const open = undecidedInDoubt(journalState(earlier, path, ways, lines));
  if (open.length === 0) return;
  const named = namedCalls(open);
  throw new UsageError(
    'BAD_JOURNAL',
    `${line === undefined ? path : `${path}:${line}`}: a new run begins in it after a run that left ${open.length === 1 ? 'a call' : `${open.length} calls`} in doubt, undecided: ${named.join(', ')}; no run writes that (a new run on open doubts is refused): the file was altered, or joins two journals`,
    {
      hint: `check on the server what became of ${open.length === 1 ? 'it' : 'them'}, then ${ways.storedRecord?.(line) ?? 'give the run a journal of its own'}; nothing was run`,
    },
  );
}

/** Each call in doubt as a refusal names it: its instance and call. */
const namedCalls = (open: readonly InDoubtInstance[]) => open.map((i) => `"${i.name}" (${doubtCall(i.doubt)})`);
