// The action's run store and lease inputs (store, lease, journal as a run id): the store opened
// (ENGINECTL_STORE when the input is empty), the lease taken before the run, a lease without a
// store refused as bad input.
import type { Pipeline } from '../pipeline/model.ts';
import type { Selection } from '../pipeline/selection.ts';
import { openStoredRun, STORE_VARIABLE } from '../app/stored-run.ts';
import { takeRunLease, wantedLease } from '../app/lease-setup.ts';
import { UsageError } from '../errors.ts';
import type { Masker } from '../runner/masker.ts';
import type { MergeDeps } from './merge-action.ts';
import type { Env } from '../runner/scope.ts';

/** What an action is given: the toolkit, the GitHub API, the environment, the clock. */
export interface ActionDeps extends MergeDeps {
  env: Env;
  signal: AbortSignal;
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export interface StoreInputs {
  pipeline: Pipeline;
  selection: Selection;
  /** The journal input: with a store, the id of the run to resume. */
  resumeFrom: string;
  /** Where this step's files go, and its own temporary directory. */
  base: string;
  dir: string;
  masker: Masker;
}

export async function storeAndLease(deps: ActionDeps, inputs: StoreInputs) {
  const { kit } = deps;
  const { pipeline, selection, resumeFrom, base, dir, masker } = inputs;
  // With a store, the journal is the store's, and journal: names a run of it to resume.
  const storeUrl = kit.getInput('store').trim() || deps.env[STORE_VARIABLE];
  const stored = storeUrl
    ? await openStoredRun({
        url: storeUrl,
        resumeId: resumeFrom || undefined,
        journal: `${base}.journal.jsonl`,
        cwd: deps.cwd,
        env: deps.env,
        tmpdir: dir,
        now: deps.now(),
      })
    : undefined;
  const leaseWanted = wantedLease(pipeline, kit.getInput('lease').trim());
  if (leaseWanted && !stored)
    throw new UsageError(
      'BAD_INPUT',
      `the lease ${leaseWanted.name} lives in a run store: set input store (or ENGINECTL_STORE)`,
    );
  const taken =
    leaseWanted && stored
      ? await takeRunLease({
          store: stored.store,
          lease: leaseWanted,
          selection,
          runId: stored.runId,
          pipeline,
          env: deps.env,
          masker,
          signal: deps.signal,
          clock: { now: deps.now, sleep: deps.sleep },
          say: (m) => kit.warning(masker.mask(m), { title: 'enginectl' }),
        })
      : undefined;
  return { stored, taken };
}
