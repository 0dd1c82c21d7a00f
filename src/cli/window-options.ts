// The run command's options for windows and freezes (pipeline-format.md, Windows and freezes):
// --override-freeze with --reason (only from an identity the pipeline's override-freeze: lists,
// matched on the CI's actor), --history (journals whose write durations give each step type's p95
// at a site, besides the run store's latest runs) and --clock (where the simulated clock of --emulator starts, to try a window).
export { windowOverride } from '../app/window-override.ts';
import { UsageError } from '../errors.ts';
import { isoInstant } from '../schedule/recurrence.ts';
import { readJournal, type JournalState } from '../journal/read.ts';
import { readStoredJournal, storedJournalAt, storedRuns } from '../journal/replica.ts';
import { passedOver } from '../journal/passed-over.ts';
import { journalKey } from '../journal/seal.ts';
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
  --history F        a journal of earlier runs: each step type's write durations at each server
                     give the p95 a write is expected to take (repeatable)
  --clock TIME       with --emulator: the simulated clock starts at TIME (ISO 8601 with its offset, 2026-03-21T02:00Z)`;

interface WindowValues {
  'override-freeze'?: boolean | undefined;
  reason?: string | undefined;
  history?: string[] | undefined;
  clock?: string | undefined;
  emulator?: boolean | undefined;
}

/** The successful write durations of a journal's instances, by step type and server. */
export function writeDurations(state: JournalState, into = new Map<string, number[]>()): Map<string, number[]> {
  for (const instance of state.instances.values()) {
    const run = instance.ended?.run;
    if (!run || run.outcome !== 'success' || run.durationMs === undefined || run.resume === 'earlier-run') continue;
    const key = historyKey(run.uses, run.server);
    into.set(key, [...(into.get(key) ?? []), run.durationMs]);
  }
  return into;
}

const historyKey = (uses: string, server: string | undefined) => `${uses}\u0000${server ?? ''}`;

/** How many of a run store's latest runs give the durations of a pipeline with windows or freezes. */
export const STORED_HISTORY_RUNS = 20;

/**
 * The durations of every journal --history gives, and with a run store those of its latest runs
 * (a run it cannot read, damaged, a newer enginectl's or sealed with another key, gives none, with
 * a warning naming it in the words of every reader of the store), as the runner asks for them.
 */
export async function historyOf(
  values: WindowValues,
  io: Pick<CliIO, 'readFile' | 'env' | 'signal' | 'stderr'>,
  store?: RunStore,
  command = 'run',
): Promise<((uses: string, server: string | undefined) => readonly number[]) | undefined> {
  if (!values.history?.length && !store) return undefined;
  const durations = new Map<string, number[]>();
  for (const path of values.history ?? [])
    writeDurations(await readJournalFile(`${command} --history`, path, io), durations);
  for (const id of store ? (await storedRuns(store)).slice(0, STORED_HISTORY_RUNS) : []) {
    try {
      const read = await readStoredJournal(store!, id);
      const ways = storedWays(storedJournalAt(store!, id, () => read.segments));
      writeDurations(readJournal(read.text, `${store!.url} run ${id}`, journalKey(io.env), ways), durations);
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
  return (uses, server) => durations.get(historyKey(uses, server)) ?? [];
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
