// The run command's options for windows and freezes (pipeline-format.md, Windows and freezes):
// --override-freeze with --reason (only from an identity the pipeline's override-freeze: lists,
// matched on the CI's actor), --history (journals whose write durations give each step type's p95
// at a server's place, besides the run store's latest runs) and --clock (where the simulated clock of --emulator starts, to try a window).
export { windowOverride } from '../app/window-override.ts';
import { calledAt } from '../api/called-at.ts';
import type { ServerPlace } from '../app/server-places.ts';
import { UsageError } from '../errors.ts';
import { isoInstant } from '../schedule/recurrence.ts';
import { readJournal, type JournalState } from '../journal/read.ts';
import { readStoredJournal, storedJournalAt, storedRuns } from '../journal/replica.ts';
import { passedOver } from '../journal/passed-over.ts';
import { journalKey } from '../journal/seal.ts';
import { placeHidden } from '../journal/sent-server.ts';
import { StoreError, type RunStore } from '../store/store.ts';
import { neutraliseLines } from '../text/neutralise.ts';
import { storedWays } from '../ways-on.ts';
import { readJournalFile } from './journal-file.ts';
import type { CliIO } from './io.ts';

export const WINDOW_OPTIONS = {
  'override-freeze': { type: 'boolean' },
  history: { type: 'string', multiple: true },
  clock: { type: 'string' },
} as const;

export const WINDOW_OPTIONS_HELP = `  --override-freeze  with --reason TEXT: start the writes that do not fit their window or meet a
                     freeze; only for an identity the pipeline's override-freeze: lists (recorded)
  --history F        a journal of earlier runs: each step type's write durations at each server's
                     URL give the p95 a write is expected to take (repeatable; a run against the
                     embedded emulator counts only for another one)
  --clock TIME       with --emulator: the simulated clock starts at TIME (ISO 8601 with its offset, 2026-03-21T02:00Z)`;

interface WindowValues {
  'override-freeze'?: boolean | undefined;
  reason?: string | undefined;
  history?: string[] | undefined;
  clock?: string | undefined;
  emulator?: boolean | undefined;
}

/**
 * The successful write durations of a journal's instances (each that sent a write, once whatever
 * journals hold it: `seen`), by step type and the place their server
 * was called at: its URL as the run that ended them recorded it (masked), read as its client
 * calls it (app/server-places.ts). `real`: for a run against the servers, which leaves out those of
 * a run against the embedded emulator (its run record says so): they took the emulator's
 * milliseconds, and would let a write that takes an hour start minutes before its window ends.
 */
export function writeDurations(
  state: JournalState,
  into = new Map<string, number[]>(),
  real = false,
  seen = new Set<string>(),
): Map<string, number[]> {
  for (const [id, instance] of state.instances) {
    const ended = instance.ended;
    const run = ended?.run;
    if (!run || run.outcome !== 'success' || run.durationMs === undefined || run.resume === 'earlier-run') continue;
    // A write's time only: an instance that sent none took a read's (api/request's GET: one step type with its POST).
    if (!instance.call) continue;
    // The run it ended in: where it called its server, and whether that was the emulator.
    const record = state.runs.findLast((r) => r.at === ended.runAt);
    const place = record && recordedPlace(record, run.server);
    if (!record || place === undefined || (real && record.emulator)) continue;
    // Each write once: a run read from the store and from a --history file (or a file given twice)
    // is the same run (its start and salt), and its writes are one sample each, not two.
    const sample = `${record.at}\u0000${record.salt}\u0000${id}`;
    if (seen.has(sample)) continue;
    seen.add(sample);
    const key = historyKey(run.uses, place);
    const known = into.get(key);
    if (known) known.push(run.durationMs);
    else into.set(key, [run.durationMs]);
  }
  return into;
}

const historyKey = (uses: string, place: string) => `${uses}\u0000${place}`;

/**
 * Where a run called its server `name`, as its record keeps it: the key's fingerprint of a place
 * that holds a secret (journal/sent-server.ts), else the place; undefined for a secret place the
 * record cannot tell (no key then), whose durations may be any server's.
 */
function recordedPlace(record: JournalState['runs'][number], name: string | undefined): string | undefined {
  if (name === undefined) return '';
  const url = record.servers[name];
  const id = record.places?.called[name];
  return id ?? (url === undefined || placeHidden(url) ? undefined : calledAt(url));
}

/** How many of a run store's latest runs give the durations of a pipeline with windows or freezes. */
export const STORED_HISTORY_RUNS = 20;

/** Where the durations are read from, and where this run calls its servers. */
export interface HistoryFrom {
  /** The place of each of this run's servers (app/server-places.ts): durations elsewhere are not its servers'. */
  place: ServerPlace;
  store?: RunStore | undefined;
  command?: string;
}

/**
 * The durations of every journal --history gives, and with a run store those of its latest runs
 * (a run it cannot read, damaged, a newer enginectl's or sealed with another key, gives none, with
 * a warning naming it in the words of every reader of the store), as the runner asks for them: of
 * the step type at the place this run calls the server. A run against the servers counts none of a
 * run against the embedded emulator (a rehearsal kept in the same store): said of a --history
 * journal, which was given for its durations; a stored one is passed over quietly.
 */
export async function historyOf(
  values: WindowValues,
  io: Pick<CliIO, 'readFile' | 'env' | 'signal' | 'stderr'>,
  { place, store, command = 'run' }: HistoryFrom,
): Promise<((uses: string, server: string | undefined) => readonly number[]) | undefined> {
  if (!values.history?.length && !store) return undefined;
  const real = values.emulator !== true;
  const durations = new Map<string, number[]>();
  const seen = new Set<string>();
  for (const path of values.history ?? []) {
    const state = await readJournalFile(`${command} --history`, path, io);
    if (real && state.runs.some((r) => r.emulator))
      io.stderr(
        `enginectl: warning: ${neutraliseLines(`${command} --history ${path}: its runs against the embedded emulator (run --emulator) are not counted: their writes took the emulator's milliseconds, not a server's time`)}\n`,
      );
    writeDurations(state, durations, real, seen);
  }
  for (const id of store ? (await storedRuns(store)).slice(0, STORED_HISTORY_RUNS) : []) {
    try {
      const read = await readStoredJournal(store!, id);
      const ways = storedWays(storedJournalAt(store!, id, () => read.segments));
      const state = readJournal(read.text, `${store!.url} run ${id}`, journalKey(io.env), ways);
      writeDurations(state, durations, real, seen);
    } catch (error) {
      // No record yet (the run this runner opens, fences alone): nothing to read, nothing to say.
      if (error instanceof StoreError && error.code === 'STORE_REFUSED') continue;
      // Not evidence: the p95 is read from the others, or the step's own bound; said, with what to do.
      const said = passedOver(error);
      const named = said.includes(` run ${id}`) ? said : `${store!.url} run ${id}: ${said}`;
      io.stderr(
        `enginectl: warning: ${neutraliseLines(`its write durations are not counted (each write's p95 is read from the other runs): ${named}`)}\n`,
      );
    }
  }
  return (uses, server) => {
    const at = place(server);
    return at === undefined ? [] : (durations.get(historyKey(uses, at)) ?? []);
  };
}

/** --clock: where the simulated clock starts (epoch ms), or undefined. */
export function clockStart(values: WindowValues): number | undefined {
  if (values.clock === undefined) return undefined;
  // With its offset (Z, +02:00): a time without one would be read in this machine's zone.
  const at = isoInstant(values.clock);
  if (!values.emulator || at === undefined)
    throw new UsageError(
      'BAD_ARGUMENTS',
      values.emulator
        ? `run: --clock ${values.clock} is no ISO 8601 time with its offset`
        : 'run: --clock goes with --emulator',
      { hint: 'enginectl run FILE --emulator --clock 2026-03-21T02:00:00Z' },
    );
  return at;
}
