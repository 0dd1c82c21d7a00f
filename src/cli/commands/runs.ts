// `enginectl runs --store URL`: the runs a run store holds, newest first, each with its pipeline,
// when it started, and what its journal says of it (finished and how, or not finished: killed,
// lost with its runner, or still running), so an operator finds the id to resume, report or verify.
import { EnginectlError, ExitCode, UsageError } from '../../errors.ts';
import { readJournal } from '../../journal/read.ts';
import { releaseOf } from '../../journal/release.ts';
import { journalPrefix, readStoredJournal, storedJournalAt, storedRuns } from '../../journal/replica.ts';
import { storedWays } from '../../ways-on.ts';
import { journalKey } from '../../journal/seal.ts';
import { storeToRead } from '../../app/stored-run.ts';
import { checkKey, StoreError } from '../../store/store.ts';
import { listShardedRun, shardedRuns, type ShardedRunListed } from '../../app/sharded-runs.ts';
import { abortOf, inEffect, pendingDecisions, timeouts, waitLines } from '../../app/parked.ts';
import { realClock } from '../../app/clock.ts';
import { neutraliseLines } from '../../text/neutralise.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

/** What makes one run unreadable (its records, its name), not the store: the listing goes on past it. */
const RUN_UNREADABLE = new Set(['BAD_JOURNAL', 'STORE_DAMAGED', 'STORE_VERSION']);

/** A run's name no store key takes (a directory named with terminal escapes): not a run of enginectl's. */
function nameOfRun(url: string, id: string): void {
  const key = journalPrefix(id).slice(0, -1);
  try {
    checkKey(key);
  } catch {
    throw new StoreError(
      'STORE_DAMAGED',
      `${url}: ${JSON.stringify(key)} is not a key of the run store: no run of enginectl`,
      {
        hint: 'move it out of the store (it may have been copied or planted there)',
      },
    );
  }
}

export const RUNS_HELP = `Usage: enginectl runs --store URL [--last N] [--parked]

Lists the runs a run store holds (run --store URL), newest first: the run id, when it started,
the pipeline, and its outcome as its journal tells it ("not finished": killed, its runner lost, or
still running; resume it with run FILE --store URL --resume ID). A sharded run (enginectl shard)
is one line, with where its rollout stands as report --merge --store reads it; the runs its
workers started for its sites are not listed on their own (its merged report names them).

Options:
  --store URL   the run store (file:///PATH or s3://BUCKET/PREFIX; also ENGINECTL_STORE)
  --last N      the N newest runs (default 20)
  --parked      only the parked runs (run exited 75), each with what it waits for (decide
                --store URL --run ID: the evidence; run --continue ID: go on; a sharded
                run: its workers run again)
  -h, --help    show this help

A run that cannot be read (its records not enginectl's, or damaged) is listed as "cannot be
read" with why, and the others still are; the command then exits as its error says.

Exit codes: 0, 1 the store failed or a run's records are damaged (STORE_DAMAGED), 2 invalid input
(or a journal that is not enginectl's).`;

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
  // Digits only: Number() reads 1e1, 0x10 and " 3" too, and "" as 0.
  const last = values.last === undefined ? 20 : /^\d+$/.test(values.last) ? Number(values.last) : NaN;
  if (!Number.isInteger(last) || last < 1)
    throw new UsageError('BAD_ARGUMENTS', `runs --last ${values.last}: a whole number from 1`);
  const store = await storeToRead('runs', values.store, io.env, io.cwd, '', io.signal);
  // A sharded run is one run of the listing, its sites' runs under it (not listed).
  const sharded = await shardedRuns(store);
  // --parked: every run is read (a parked one may be older than the newest N), the parked ones listed.
  const ids = [...(await storedRuns(store)).filter((id) => !sharded.siteRuns.has(id)), ...sharded.ids]
    .sort()
    .reverse()
    .slice(0, values.parked ? undefined : last);
  let listed = 0;
  // The run's clock: a decision's timeout (decide --after) counts once its time came.
  const now = (io.clock ?? realClock()).now();
  // A run that cannot be read (records not enginectl's, a name no store key takes) is named with
  // why, the others still listed; the first such error ends the command once all are listed.
  let unreadable: EnginectlError | undefined;
  for (const id of ids) {
    let state;
    try {
      if (sharded.ids.has(id)) {
        const run = await listShardedRun(store, id, journalKey(io.env), now);
        if (values.parked && (!run.parked || listed >= last)) continue;
        listed++;
        io.stdout(shardedLines(id, run, values.parked ?? false));
        continue;
      }
      nameOfRun(store.url, id);
      // A run of fences alone (taken over before its first record, and stopped) was never begun: not listed.
      const read = await readStoredJournal(store, id).catch((error: unknown) => {
        if (error instanceof StoreError && error.code === 'STORE_REFUSED') return undefined;
        throw error;
      });
      if (!read) continue;
      const ways = storedWays(storedJournalAt(store, id, () => read.segments));
      state = readJournal(read.text, `${store.url} run ${id}`, journalKey(io.env), ways);
    } catch (error) {
      if (!(error instanceof EnginectlError) || !RUN_UNREADABLE.has(error.code)) throw error;
      unreadable ??= error;
      listed++;
      io.stdout(`${neutraliseLines(`${id}  cannot be read: ${error.message}`)}\n`);
      continue;
    }
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
  if (unreadable) throw unreadable;
  if (listed === 0) io.stdout(`no ${values.parked ? 'parked ' : ''}run in ${neutraliseLines(store.url)}\n`);
  return ExitCode.ok;
}

/** A sharded run's lines: all runs list it with where it stands; --parked only a parked one, with what it waits for. */
function shardedLines(id: string, run: ShardedRunListed, parked: boolean): string {
  const what = `"${run.name}" (${run.file})`;
  const over = `sharded over ${run.shards} shard(s), ${run.sites} site(s)`;
  if (!parked)
    return `${id}  ${new Date(run.at).toISOString()}  ${neutraliseLines(`${what}  ${over}: ${run.state}`)}\n`;
  const p = run.parked!;
  return `${neutraliseLines(`${id}  ${what}  ${over}, parked at wave ${p.wave} since ${p.since}: waiting for ${p.reason}`)}\n  ${neutraliseLines(p.goOn)}\n`;
}
