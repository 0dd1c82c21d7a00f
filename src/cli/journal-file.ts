// A journal named on the command line (report, verify), read and checked: an unreadable file is
// invalid input (exit 2), a damaged or forged one is refused at its line; or a run of the run
// store, by its id, read as a file is.
import { interruptedRead, UsageError } from '../errors.ts';
import { undecodedNameHint } from '../file-name.ts';
import { readJournal, tornLine, type JournalState } from '../journal/read.ts';
import { storedWays } from '../ways-on.ts';
import { journalKey } from '../journal/seal.ts';
import { checkRunId, readStoredJournal, storedJournalAt } from '../journal/replica.ts';
import { namedStore } from '../app/stored-run.ts';
import type { RunStore } from '../store/store.ts';
import type { CliIO } from './io.ts';
import { neutraliseLines } from '../text/neutralise.ts';
import { resolve } from 'node:path';
import { refuseWhileLocked } from '../journal/lock.ts';
import { refuseWhileRunning } from '../app/stored-run-held.ts';
import { realClock } from '../app/clock.ts';

export async function readJournalFile(
  command: string,
  path: string,
  io: Pick<CliIO, 'readFile' | 'env' | 'signal'>,
): Promise<JournalState> {
  let text: string;
  try {
    text = await io.readFile(path);
  } catch (error) {
    // A FIFO whose writer stalls, stopped by SIGINT or SIGTERM: an interruption, not a bad file.
    throw (
      interruptedRead(io.signal, `${command}: reading ${path}`, 'nothing was done') ??
      new UsageError(
        'BAD_JOURNAL',
        `${command}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        { hint: undecodedNameHint(path, error) ?? 'give the file a run wrote with --journal' },
      )
    );
  }
  return readJournal(text, path, journalKey(io.env));
}

/** What a command asks of a stored run once it is read, before it uses it (verify: that no live runner holds it). */
export type StoredRunCheck = (store: RunStore, runId: string, state: JournalState) => Promise<void>;

/** The journal a command reads: a file (JOURNAL), or a run of the run store (--store URL --run ID), checked by `check`. */
export async function readNamedJournal(
  command: string,
  positionals: readonly string[],
  values: { store?: string | undefined; run?: string | undefined },
  io: Pick<CliIO, 'readFile' | 'env' | 'cwd' | 'stderr' | 'signal'>,
  check?: StoredRunCheck,
): Promise<{ state: JournalState; name: string }> {
  const read = await namedJournal(command, positionals, values, io, check);
  // What a run killed mid-write leaves: left out, read as never written (the cautious side).
  if (read.state.torn !== undefined)
    io.stderr(`enginectl: warning: ${neutraliseLines(tornLine(read.name, read.state.torn))}\n`);
  return read;
}

async function namedJournal(
  command: string,
  positionals: readonly string[],
  values: { store?: string | undefined; run?: string | undefined },
  io: Pick<CliIO, 'readFile' | 'env' | 'cwd' | 'signal'>,
  check: StoredRunCheck | undefined,
): Promise<{ state: JournalState; name: string }> {
  if (values.run !== undefined) {
    if (positionals.length > 0)
      throw new UsageError('BAD_ARGUMENTS', `${command}: a JOURNAL file or --run ID, not both`);
    const store = namedStore(command, values.store, io.env, io.cwd, '--run names a run of a run store: ', io.signal);
    const { text, segments } = await readStoredJournal(store, checkRunId(values.run));
    const name = `${store.url} run ${values.run}`;
    const ways = storedWays(storedJournalAt(store, values.run, () => segments));
    const state = readJournal(text, name, journalKey(io.env), ways);
    await check?.(store, values.run, state);
    return { state, name };
  }
  if (positionals.length !== 1)
    throw new UsageError('BAD_ARGUMENTS', `${command}: expected one JOURNAL, got ${positionals.length}`, {
      hint: `enginectl ${command} run.journal.jsonl, or enginectl ${command} --store URL --run ID`,
    });
  return { state: await readJournalFile(command, positionals[0]!, io), name: positionals[0]! };
}

/**
 * A journal read as the record of a run that ended (report): refused (JOURNAL_LOCKED) while a live
 * run writes it, its file's lock or its stored run's hold live, as verify refuses it: a call that
 * run has in flight is not in doubt, and the steps after it are still to come. A hold whose run is
 * gone is said, and the journal read.
 */
export async function readEndedJournal(
  command: string,
  positionals: readonly string[],
  values: { store?: string | undefined; run?: string | undefined },
  io: Pick<CliIO, 'readFile' | 'env' | 'cwd' | 'stderr' | 'signal' | 'clock'>,
): Promise<{ state: JournalState; name: string }> {
  const warn = ({ warning }: { warning?: string }) => {
    if (warning) io.stderr(`enginectl: warning: ${neutraliseLines(warning)}\n`);
  };
  if (values.run === undefined && positionals.length === 1)
    warn(refuseWhileLocked(resolve(io.cwd, positionals[0]!), `enginectl ${command}`));
  return readNamedJournal(command, positionals, values, io, async (store, id, read) => {
    const now = (io.clock ?? realClock()).now();
    await refuseWhileRunning(store, id, read, command, now, 'Nothing was reported', {
      warn: (warning) => warn({ warning }),
    });
  });
}
