// A journal named on the command line (report, verify), read and checked: an unreadable file is
// invalid input (exit 2), a damaged or forged one is refused at its line.
import { UsageError } from '../errors.ts';
import { readJournal, type JournalState } from '../journal/read.ts';
import { journalKey } from '../journal/seal.ts';
import type { CliIO } from './io.ts';

export async function readJournalFile(command: string, path: string, io: Pick<CliIO, 'readFile' | 'env'>): Promise<JournalState> {
  let text: string;
  try {
    text = await io.readFile(path);
  } catch (error) {
    throw new UsageError('BAD_JOURNAL', `${command}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { hint: 'give the file a run wrote with --journal' });
  }
  return readJournal(text, path, journalKey(io.env));
}
