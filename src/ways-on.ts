// How the operator's surface names the ways on that a refusal gives: a resume, a decision on the
// calls in doubt, the word to go on past a halted wave, the continue of a parked run. The core's
// refusals say what to do in the words of the surface in use: the CLI's flags (these), or the
// action's inputs (action/ways-on.ts), so no one is told a flag their surface does not take.
export interface WaysOn {
  /** How a resume is asked for: `--resume`. */
  resume: string;
  /** A resume of this journal (a path, or a stored run's id). */
  resumeOf(journal: string): string;
  /** What a run again resumes with, as "run it again with" names it: `--resume JOURNAL`. */
  resumeFrom(journal: string): string;
  /** The operator's decision on the calls in doubt, given with the resume: `--in-doubt skip`. */
  inDoubt(mode: string): string;
  /** The operator's word to go on past a halted wave. */
  continueRollout: string;
  /** Going on with a parked run of the store. */
  continueParked(run: string): string;
  /** The run's vars, as a change of them is named: `--var`. */
  vars: string;
  /** The run's selection, as a change of it is named: `--only or --skip`. */
  selection: string;
  /** What a resume keeps the same: `--var, --only and --skip`. */
  same: string;
  /** What a run's pipeline file is called when it changed (a single-step action's: its inputs); `the pipeline file` when absent. */
  pipelineFile?: string | undefined;
  /** The word to resume past a change, carrying only what is unchanged: `--force`; none where the surface has none. */
  force?: string | undefined;
  /** The ways on from a fleet lease that expired in the hands of run `previous`, which left calls verify cannot tell. */
  takeOver(previous: string): string;
  /** How the target of a call in doubt is read back: `enginectl verify JOURNAL (or resume with --in-doubt verify)`. */
  readBack: string;
  /** A resume of the run's journal deciding its calls in doubt with `modes`: `run --resume JOURNAL --in-doubt skip|retry`. */
  resumeDeciding(modes: string): string;
  /** How the surface tells that the run parked: `exit 75`. */
  parkedSignal: string;
  /** Starting a write outside its window anyway: `--override-freeze --reason "..."`. */
  overrideFreeze: string;
  /** How a parked run is gone on with, as a report's note says it: `enginectl run --continue`. */
  goOnParked: string;
  /** A resume of the run, from its journal or, parked, from the store: `--resume, or --continue from the store`. */
  resumeRun: string;
  /** A resume of stored run `run` from the store: `run --resume from the store`. */
  resumeStored(run: string): string;
  /** A journal a run wrote, as a resume is given it: `the journal file a run wrote with --journal`. */
  journalWritten: string;
  /** What writes a journal, as a refusal of a file that is none names it: `enginectl run --journal`. */
  journalWriter: string;
  /** Where a run store's journal's record at `line` (storedWays) is, and what to do once it is refused: none for a journal file (this file's words). */
  storedRecord?: ((line?: number) => string) | undefined;
  /** A new run instead of one of the store that cannot be read, as its refusal offers it: `run FILE --store URL, without --resume or --continue`. */
  startAnew: string;
  /** The local journal file a stored run's runner may have kept besides the store, as a damaged segment's hint offers it: `the --journal F file its runner was given, if it was`. */
  runnerJournal: string;
  /** What to do once the journal's disk is full, before going on: `free space on that disk (or choose another --journal)`. */
  freeSpace: string;
  /** How a merge of the jobs' reports is named, in its refusals: `report --merge`. */
  merging: string;
  /** What a merge reads, as its refusal asks for it: `the JSON reports (--report-json) or journals (--journal) the jobs wrote`. */
  mergedFiles: string;
  /** What a file a merge is given is to be, as its refusal of one that is neither says: `a JSON report (--report-json) nor a journal (--journal)`. */
  reportOrJournal: string;
  /** The values of the run's vars, as reports of another pipeline are told: `--var values`. */
  varValues: string;
  /** The run that goes on and acts on an operator's decision recorded: `run --resume JOURNAL, or run --continue ID of a parked run`. */
  goOnDecided: string;
  /** Setting secret `name` the pipeline reads, as the hint of one not set says: `set NAME in the environment (a CI secret), e.g. NAME=… enginectl run`. */
  setSecret(name: string): string;
  /** Where a server is given, as the hint of a step with none says: `add a servers: block, set ENGINE_URL (...), or run with --emulator`. */
  noServer: string;
  /** How a run of the store is found, as the hint of an id that names none says: `list the store's runs with enginectl runs --store URL`. */
  findRun: string;
  /** How a parked run of the store is found, as the hint of a continue of one that did not park says: `enginectl runs --store URL --parked lists the parked runs`. */
  findParked: string;
  /** The jobs of a run store, as a newer enginectl's record's hint says to run each with it: `run, --continue, --resume, the shards, decide, verify, report, lease`. */
  storeJobs: string;
  /** A lease's name as given, as the hint of one refused shows it: `lease: { name: prod-fleet }, or --lease prod-fleet`. */
  leaseExample: string;
  /** What goes on past a fleet lease another run holds, as the LEASE_HELD hint offers it: `run again once it is released, or give the pipeline's lease: a longer wait ...`. */
  leaseWait: string;
  /** The code of a value given on this surface that is refused (a lease's name): `BAD_ARGUMENTS`, the command line's; `BAD_INPUT`, an action's input's. */
  badValue: 'BAD_ARGUMENTS' | 'BAD_INPUT';
  /** Giving a var's value besides the pipeline's vars:, as a hint offers it: `pass --var NAME=VALUE`. */
  giveVar(example: string): string;
  /** Where a var or a selection of the run is given: `--var`, `--only`, `--skip`. */
  given(kind: 'var' | 'only' | 'skip'): string;
  /** Examples of them as given: `--only site=prod`. */
  example(kind: 'var' | 'only' | 'skip', ...values: string[]): string;
}

export const CLI_WAYS: WaysOn = {
  resume: '--resume',
  resumeOf: (journal) => `run --resume ${journal}`,
  resumeFrom: (journal) => `--resume ${journal}`,
  inDoubt: (mode) => `--in-doubt ${mode}`,
  continueRollout: '--continue-rollout',
  continueParked: (run) => `enginectl run FILE --store URL --continue ${run}`,
  vars: '--var',
  selection: '--only or --skip',
  same: '--var, --only and --skip',
  force: '--force',
  takeOver: (previous) =>
    `take the lease over with --take-over --reason "what you checked" (recorded in the lease and every report), or resume run ${previous} itself`,
  readBack: 'enginectl verify JOURNAL (or resume with --in-doubt verify)',
  resumeDeciding: (modes) => `run --resume JOURNAL --in-doubt ${modes}`,
  parkedSignal: 'exit 75',
  overrideFreeze: '--override-freeze --reason "..."',
  goOnParked: 'enginectl run --continue',
  resumeRun: '--resume, or --continue from the store',
  resumeStored: () => 'run --resume from the store',
  journalWritten: 'the journal file a run wrote with --journal',
  journalWriter: 'enginectl run --journal',
  runnerJournal:
    'the --journal F file its runner was given, if it was given one (a shard worker keeps none, nor does a run given none)',
  startAnew:
    'run FILE --store URL, without --resume or --continue (a site of a sharded run: abort the sharded run with decide --store URL --run ID --abort --reason TEXT, then plan anew with enginectl shard --new-run)',
  freeSpace: 'free space on that disk (or choose another --journal)',
  merging: 'report --merge',
  mergedFiles: 'the JSON reports (--report-json) or journals (--journal) the jobs wrote',
  reportOrJournal: 'a JSON report (--report-json) nor a journal (--journal)',
  varValues: '--var values',
  goOnDecided: 'run --resume JOURNAL, or run --continue ID of a parked run',
  setSecret: (name) => `set ${name} in the environment (a CI secret), e.g. ${name}=… enginectl run`,
  noServer: 'add a servers: block, set ENGINE_URL (with ENGINE_USERNAME and ENGINE_PASSWORD), or run with --emulator',
  findRun: "list the store's runs with enginectl runs --store URL",
  findParked: 'enginectl runs --store URL --parked lists the parked runs',
  storeJobs: 'run, --continue, --resume, the shards, decide, verify, report, lease',
  leaseExample: 'lease: { name: prod-fleet }, or --lease prod-fleet',
  leaseWait:
    "run again once it is released, or give the pipeline's lease: a longer wait (lease: { wait: 10m }; --lease takes its wait)",
  badValue: 'BAD_ARGUMENTS',
  giveVar: (example) => `pass --var ${example}`,
  given: (kind) => `--${kind}`,
  example: (kind, ...values) => values.map((v) => `--${kind} ${v}`).join(' '),
};

/** Where a run's journal is in a run store, as the refusal of one of its records names it. */
export interface StoredJournal {
  url: string;
  runId: string;
  /** The key its segments are under: `runs/ID/journal/`. */
  prefix: string;
  /** The key of the segment that holds line `line` of the journal (from 1), if it is known. */
  keyOf(line: number): string | undefined;
}

/** The ways of a journal read from a run store: a record refused is the store's, never a file to give again. */
export const storedWays = (at: StoredJournal, ways: WaysOn = CLI_WAYS): WaysOn => ({
  ...ways,
  storedRecord: (line) => {
    const key = line === undefined ? undefined : at.keyOf(line);
    const what = key ? `its record at ${key} in ${at.url} was` : `its records under ${at.prefix} in ${at.url} were`;
    return `nothing but enginectl writes under runs/ in a run store: ${what} altered or written by something else; put ${key ? 'it' : 'them'} back from a copy of the store (S3 versioning, a backup), or give run ${at.runId} up and start anew: ${ways.startAnew}`;
  },
});

/** What to do with a journal whose record (at `line`) is refused: give the file its writer wrote (`orNew`: or a new file), or a run store's words. */
export const giveJournal = (ways: WaysOn, line?: number, orNew = false) =>
  ways.storedRecord?.(line) ??
  `give the file written by ${ways.journalWriter}${orNew ? ', or a new file for a new journal' : ''}`;

/** What a journal holding a record no run writes (at `line`: damaged, out of order) is: a file altered (`one`: or two mixed), or a run store's words. */
export const alteredJournal = (ways: WaysOn, line?: number, one = false) =>
  ways.storedRecord?.(line) ??
  `this file was altered, or is not ${one ? 'one journal' : 'a journal'} of ${ways.journalWriter}`;

/** What to do with a sealed journal whose record at `line` the key refused: its key, and where it came from (a file's, or the store's words). */
export const sealRefused = (ways: WaysOn, line: number) =>
  ways.storedRecord
    ? `read it with the key that wrote it; if this is that key, ${ways.storedRecord(line)}`
    : 'check where this file came from, or read it with the key that wrote it';
