// A new run on a journal whose last release left a call in doubt: refused, nothing sent.
import { doubtCall } from '../api/index.ts';
import { UsageError } from '../errors.ts';
import type { Framed } from '../journal/frame.ts';
import { journalState, parseRecords } from '../journal/read.ts';
import { undecidedInDoubt } from '../journal/verify.ts';
import type { WaysOn } from '../ways-on.ts';

/**
 * A new run appended to a journal whose last release left a call in doubt would start a new
 * release and send it again with no word from anyone: refused as --resume refuses, until the
 * operator decides it (a resume with --in-doubt, which records the decision) or verifies it.
 */
export function refuseOpenDoubts(framed: Framed, path: string, ways: WaysOn): void {
  if (framed.lines.length === 0) return;
  const open = undecidedInDoubt(journalState(parseRecords(framed, path, ways), path, ways));
  if (open.length === 0) return;
  const named = open.map((i) => `"${i.name}" (${doubtCall(i.doubt)})`);
  throw new UsageError(
    'RESUME_REFUSED',
    `journal ${path}: its last run left ${open.length === 1 ? 'a call' : `${open.length} calls`} in doubt: ${named.join(', ')}; a new run on it would send ${open.length === 1 ? 'it' : 'them'} again`,
    {
      hint: `resume it instead (${ways.resumeOf(path)}, with ${ways.inDoubt('verify')} to read the targets back, or ${ways.inDoubt('skip|retry')} once you checked on the server), or give this run a journal of its own; nothing was sent`,
    },
  );
}
