// The action's run store and lease inputs (store, lease, journal as a run id): the store opened
// (ENGINECTL_STORE when the input is empty), the lease taken before the run, a pipeline's lease:
// without a store refused as bad input (the inputs themselves are checked first: run-inputs.ts);
// a parked run of the store gone on with, or parked again. Every run of the
// store holds the run's own lease while it runs (app/run-own-lease.ts), taken with the store.
import type { Pipeline } from '../pipeline/model.ts';
import type { Selection } from '../pipeline/selection.ts';
import { openStoredRun, storeAt, storeUrlOf, type StoredRun } from '../app/stored-run.ts';
import { fenceToGoOn } from '../app/fence-to-go-on.ts';
import { probeStore } from '../store/probe.ts';
import { earlierAttemptRun, markAttemptRun, type Attempt } from './rerun.ts';
import { holdStoredRun, type RunHold } from '../app/run-own-lease.ts';
import { takeRunLease, wantedLease } from '../app/lease-setup.ts';
import type { JournalSetup } from '../app/journal-setup.ts';
import type { JournalFs } from '../journal/file.ts';
import type { Masker } from '../runner/masker.ts';
import type { MergeDeps } from './merge-action.ts';
import type { Env } from '../runner/scope.ts';
import { leaseWithoutStore } from './run-inputs.ts';
import { ACTION_WAYS } from './ways-on.ts';
import type { WaysOn } from '../ways-on.ts';

/** What an action is given: the toolkit, the GitHub API, the environment, the clock. */
export interface ActionDeps extends MergeDeps {
  env: Env;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** The real clock's later of `now` and the wall clock, which windows are judged at (schedule/window-time.ts); absent, `now`. */
  latest?: (() => number) | undefined;
  /** The file system the journal is written with (tests pass a full disk); the real one when absent. */
  journalFs?: JournalFs | undefined;
  /** The run's steady time, which bounds a write's hand-off after its record (tests move it); performance.now when absent. */
  stopwatch?: (() => number) | undefined;
}

export interface StoreInputs {
  pipeline: Pipeline;
  selection: Selection;
  /** The journal input (or continue's): with a store, the id of the run to resume. */
  resumeFrom: string;
  /** The input that named it: journal or continue. */
  resumeInput: string;
  /** Where this step's files go, and its own temporary directory. */
  base: string;
  dir: string;
  masker: Masker;
  /** This step's attempt of its GitHub workflow run (rerun.ts), when GitHub says which. */
  attempt?: Attempt | undefined;
  /** The ways on its refusals give: a single-step action's (STEP_ACTION_WAYS), else the root action's. */
  ways?: WaysOn | undefined;
}

export async function storeAndLease(deps: ActionDeps, inputs: StoreInputs) {
  const { kit } = deps;
  const { pipeline, selection, resumeFrom, resumeInput, base, dir, masker, ways = ACTION_WAYS } = inputs;
  // With a store, the journal is the store's, and journal: names a run of it to resume.
  const storeUrl = storeUrlOf(kit.getInput('store').trim() || undefined, deps.env, 'input store');
  // A job GitHub runs again goes on with the run an earlier attempt of this step started (rerun.ts).
  const attempt = storeUrl && !resumeFrom ? inputs.attempt : undefined;
  const opened = attempt && storeUrl ? storeAt(storeUrl, deps.cwd, deps.env, deps.signal, 'input store') : undefined;
  if (opened) await probeStore(opened, () => deps.now());
  const earlier = opened && attempt ? await earlierAttemptRun(opened, attempt) : undefined;
  if (earlier)
    kit.info(
      `attempt ${attempt!.attempt} of workflow run ${attempt!.runId}: going on with run ${earlier}, which an earlier attempt of this step started: what it applied is not sent again`,
    );
  const stored = storeUrl
    ? await openStoredRun({
        url: storeUrl,
        store: opened,
        resumeId: resumeFrom || earlier || undefined,
        resumeNamed: `input ${resumeInput}`,
        storeNamed: 'input store',
        journal: `${base}.journal.jsonl`,
        cwd: deps.cwd,
        env: deps.env,
        tmpdir: dir,
        now: deps.now(),
        signal: deps.signal,
        ways,
      })
    : undefined;
  // Marked before anything is sent: a later attempt finds it whatever this one gets to.
  if (stored && attempt && !stored.resume) await markAttemptRun(stored.store, attempt, stored.runId);
  const leaseWanted = wantedLease(pipeline, kit.getInput('lease').trim());
  if (leaseWanted && !stored) throw leaseWithoutStore(leaseWanted.name);
  // What each lease this runner takes is told of it: one set for its fleet lease and its own.
  const runner = {
    pipeline,
    env: deps.env,
    masker,
    signal: deps.signal,
    clock: { now: deps.now, sleep: deps.sleep },
    say: (m: string) => kit.warning(masker.mask(m), { title: 'enginectl' }),
    ways,
  };
  const taken =
    leaseWanted && stored
      ? await takeRunLease({ ...runner, store: stored.store, lease: leaseWanted, selection, runId: stored.runId })
      : undefined;
  // Every runner of a stored run holds its own lease too, taken before its journal is read again
  // and anything in doubt verified or decided (a live runner of the run: refused, JOURNAL_LOCKED).
  const held = await holdStoredRun(stored, taken, runner, leaseWanted?.ttlMs);
  return { stored, taken: held };
}

/**
 * Going on with a stored run: the leases it holds (its own, and the fleet's, taken by storeAndLease), its journal
 * fenced first; a fleet lease the park kept (`keepParked`) stays kept while the run stays parked.
 */
export async function leaseToGoOn<L extends RunHold>(
  stored: StoredRun | undefined,
  journal: JournalSetup,
  taken: L | undefined,
  keepParked: boolean,
): Promise<L | undefined> {
  await fenceToGoOn(stored, journal, taken, keepParked);
  return taken;
}
