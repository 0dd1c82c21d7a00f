// A journal's records checked one by one against the journal's schema: a damaged line, a record
// nested deeper than any enginectl writes, a record of another version or shape is refused at its
// line (exit 2), before any state is read from them (read.ts).
import { UsageError } from '../errors.ts';
import type { Framed } from './frame.ts';
import { JournalRecordSchema, READ_VERSIONS, type JournalRecord } from './records.ts';
import { MAX_HELD_DEPTH, nestsDeeper } from '../text/bounded-json.ts';
import { alteredJournal, CLI_WAYS, giveJournal, type WaysOn } from '../ways-on.ts';

/** A damaged line before the end: not a crash's trace (a crash only ever tears the last line). */
export function damagedJournal(path: string, line: number, ways: WaysOn = CLI_WAYS): UsageError {
  return new UsageError(
    'BAD_JOURNAL',
    `${path}:${line}: a damaged record before the end of the journal (its checksum does not match)`,
    {
      hint: `a crash only ever tears the last line: ${alteredJournal(ways, line)}; nothing was run`,
    },
  );
}

/** A file of one line that no record starts like: never a journal, and never cut as a torn one. */
export function notAJournal(path: string, left = '', ways: WaysOn = CLI_WAYS): UsageError {
  return new UsageError('BAD_JOURNAL', `${path}:1: not a record of an enginectl journal${left}`, {
    hint: giveJournal(ways, 1, true),
  });
}

/** Checks every whole record of a journal; a torn last line is left out (the writer cuts it). */
export function parseRecords(framed: Framed, path: string, ways: WaysOn = CLI_WAYS): JournalRecord[] {
  if (framed.foreign) throw notAJournal(path, '', ways);
  if (framed.damaged !== undefined) throw damagedJournal(path, framed.damaged, ways);
  return framed.lines.map(({ line, value }) => {
    // Every later walk of a record recurses: one nested past any record enginectl writes is refused first.
    if (nestsDeeper(value, MAX_HELD_DEPTH))
      throw new UsageError(
        'BAD_JOURNAL',
        `${path}:${line}: not a journal record (it nests more than ${MAX_HELD_DEPTH} levels deep)`,
        { hint: giveJournal(ways, line) },
      );
    const parsed = JournalRecordSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    const version = (value as { t?: unknown; v?: unknown } | null)?.v;
    if ((value as { t?: unknown } | null)?.t === 'run' && !(READ_VERSIONS as readonly unknown[]).includes(version))
      throw versionRefused(path, line, version, ways);
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      'BAD_JOURNAL',
      `${path}:${line}: not a journal record (${issue.path.join('.') || 'record'}: ${issue.message})`,
      { hint: giveJournal(ways, line) },
    );
  });
}

/**
 * A run record of a version this enginectl does not read: a later one, a newer enginectl's (one job
 * of a rollout on a newer version than the next); an earlier one; or none, or no number, which
 * no enginectl writes.
 */
function versionRefused(path: string, line: number, version: unknown, ways: WaysOn): UsageError {
  if (typeof version !== 'number')
    return new UsageError(
      'BAD_JOURNAL',
      `${path}:${line}: not a journal of enginectl: ${version === undefined ? 'its run record has no version' : `its run record's version is ${JSON.stringify(version)}, not a number`}`,
      { hint: giveJournal(ways, line) },
    );
  const reads = `this enginectl reads versions ${READ_VERSIONS.slice(0, -1).join(', ')} and ${READ_VERSIONS.at(-1)}`;
  const newer = version > READ_VERSIONS.at(-1)!;
  return new UsageError(
    'BAD_JOURNAL',
    `${path}:${line}: a journal of version ${version}; ${reads}${newer ? ': a newer enginectl wrote it' : ''}`,
    {
      hint: newer
        ? 'read, resume or continue it with that enginectl or a later one (every job of the run on it); nothing was run'
        : 'render it with the enginectl version that wrote it',
    },
  );
}
