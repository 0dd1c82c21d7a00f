// `enginectl runs --store URL`: the runs a run store holds, newest first, each with its pipeline,
// when it started, and what its journal says of it (finished and how, or not finished: killed,
// lost with its runner, or still running), so an operator finds the id to resume, report or verify.
import { ExitCode, UsageError } from '../../errors.ts';
import { readJournal } from '../../journal/read.ts';
import { releaseOf } from '../../journal/release.ts';
import { readStoredJournal, storedRuns } from '../../journal/replica.ts';
import { journalKey } from '../../journal/seal.ts';
import { storeToRead } from '../../app/stored-run.ts';
import { StoreError } from '../../store/store.ts';
import { abortOf, inEffect, pendingDecisions, timeouts, waitLines } from '../../app/parked.ts';
import { realClock } from '../../app/clock.ts';
import { neutraliseLines } from '../../text/neutralise.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

export const RUNS_HELP = `Usage: enginectl runs --store URL [--last N] [--parked]

Lists the runs a run store holds (run --store URL), newest first: the run id, when it started,
the pipeline, and its outcome as its journal tells it ("not finished": killed, its runner lost, or
still running; resume it with run FILE --store URL --resume ID).

Options:
  --store URL   the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --last N      the N newest runs (default 20)
  --parked      only the parked runs (run exited 75), each with what it waits for (decide
                --store URL --run ID: the evidence; run --continue ID: go on)
  -h, --help    show this help

Exit codes: 0, 2 invalid input (or a store that cannot be read).`;

/**
 * What `enginectl runs` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  store: { type: 'string' },
  last: { type: 'string' },
  parked: { type: 'boolean' },
} as const;

export async function runsCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('runs', args, OPTIONS);
  if (values.help) {
    io.stdout(`${RUNS_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length > 0) throw new UsageError('BAD_ARGUMENTS', 'runs: takes no FILE; --store URL names the store');
  const last = values.last === undefined ? 20 : Number(values.last);
  if (!Number.isInteger(last) || last < 1)
    throw new UsageError('BAD_ARGUMENTS', `runs --last ${values.last}: a whole number from 1`);
  const store = await storeToRead('runs', values.store, io.env, io.cwd);
  // --parked: every run is read (a parked one may be older than the newest N), the parked ones listed.
  const ids = (await storedRuns(store)).slice(0, values.parked ? undefined : last);
  let listed = 0;
  // The run's clock: a decision's timeout (decide --after) counts once its time came.
  const now = (io.clock ?? realClock()).now();
  for (const id of ids) {
    // A run of fences alone (taken over before its first record, and stopped) was never begun: not listed.
    const read = await readStoredJournal(store, id).catch((error: unknown) => {
      if (error instanceof StoreError && error.code === 'STORE_REFUSED') return undefined;
      throw error;
    });
    if (!read) continue;
    const { text } = read;
    const state = readJournal(text, `${store.url} run ${id}`, journalKey(io.env));
    const first = state.runs[0]!;
    if (values.parked) {
      const parked = state.parked && inEffect(state.parked, now);
      if (!parked || abortOf(parked) || listed >= last) continue;
      listed++;
      const { park, decided } = parked;
      io.stdout(
        `${neutraliseLines(`${id}  "${first.name}" (${first.file})  parked${park.wave ? ` at wave ${park.wave}` : ''} since ${new Date(park.since).toISOString()}: waiting for ${park.reason}${decided.length ? ` (${decided.length} decision(s) since)` : ''}`)}\n`,
      );
      for (const line of [...waitLines(pendingDecisions(parked)), ...timeouts(state.parked!, now)])
        io.stdout(`  ${neutraliseLines(line)}\n`);
      continue;
    }
    listed++;
    io.stdout(
      `${id}  ${new Date(first.at).toISOString()}  ${neutraliseLines(`"${first.name}" (${first.file})`)}  ${state.parked && !abortOf(inEffect(state.parked, now)) ? 'parked' : state.finished ? releaseOf(state).outcome : 'not finished'}\n`,
    );
  }
  if (listed === 0) io.stdout(`no ${values.parked ? 'parked ' : ''}run in ${neutraliseLines(store.url)}\n`);
  return ExitCode.ok;
}
