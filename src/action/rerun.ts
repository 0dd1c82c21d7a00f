// GitHub runs a job again ("Re-run failed jobs", "Re-run all jobs") with the same GITHUB_RUN_ID, one
// more GITHUB_RUN_ATTEMPT, the same inputs, on a fresh runner. With a run store, the action goes on
// with the run an earlier attempt of the same step started, as `journal: RUN_ID` would: what it
// applied is not sent again, and a write it left in doubt waits for the in-doubt input. Each new
// run of a store leaves a marker key naming it under its step's folder (ci/github/STEP/WHAT/RUN_ID,
// created before anything is sent): STEP is a digest of the repository, the workflow run, the job
// and the step's id; WHAT a keyed digest of where it deploys (the servers and targets the
// environment gives) and of the inputs that say what, masked (another job of a matrix, over
// environments or vars, is another run). The inputs that say how to go on (journal, in-doubt,
// store ...) are left out: a later attempt may set in-doubt by an expression on github.run_attempt.
import { createHash, createHmac } from 'node:crypto';
import { journalPrefix } from '../journal/replica.ts';
import { journalKey } from '../journal/seal.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Masker } from '../runner/masker.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import type { RunStore } from '../store/store.ts';
import { UsageError } from '../errors.ts';

/** Inputs that say how the run goes on or reports, not what it deploys. */
const HOW = new Set([
  'journal',
  'continue',
  'continue-rollout',
  'in-doubt',
  'store',
  'lease',
  'dry-run',
  'override-freeze',
  'override-reason',
  'summary',
  'pr-comment',
  'deployment-environment',
  'webhook',
  'github-token',
  'merge',
]);
/** Credentials: a rotated one deploys the same. */
const CREDENTIAL = /(^|-)(password|token)$/;

export interface Attempt {
  /** GITHUB_RUN_ATTEMPT. */
  attempt: number;
  runId: string;
  /** Where this step's runs are marked (ends in /). */
  folder: string;
}

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);

/** This step's attempt of its workflow run, when GitHub says which (GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT). */
export function attemptOf(
  env: Env,
  inputNames: readonly string[],
  getInput: (name: string) => string,
  masker: Masker,
  /** The pipeline as loaded, with the environment it reads (the run's servers and targets). */
  loaded: { pipeline: Pipeline; env: Env },
): Attempt | undefined {
  const runId = env.GITHUB_RUN_ID ?? '';
  const attempt = env.GITHUB_RUN_ATTEMPT ?? '';
  if (!/^\d+$/.test(runId) || !/^[1-9]\d*$/.test(attempt)) return undefined;
  // Where it deploys, as the environment says (a matrix over environments: ENGINE_URL, a database
  // from env), masked, credentials left out: a job of another environment is another run. When it
  // cannot be told (a secret not set), nothing is marked: the run refuses as it would.
  let where: unknown;
  try {
    const prepared = prepareRun(loaded.pipeline, loaded.env, masker);
    where = {
      servers: [...prepared.servers.values()].map((s) => [s.name, masker.mask(s.url)]),
      targets: Object.entries(prepared.targets).map(([name, target]) => [
        name,
        masker.mask(JSON.stringify(Object.entries(target).filter(([k]) => !/token|password/i.test(k)))),
      ]),
    };
  } catch {
    return undefined;
  }
  const step = digest([env.GITHUB_REPOSITORY ?? '', runId, env.GITHUB_JOB ?? '', env.GITHUB_ACTION ?? '']);
  // Keyed, never a plain hash: a value the masker does not know (a secret given in vars:) is not
  // guessed from it by whoever reads the store. The journal's key when set, else the step's digest
  // (each workflow run's own, as a journal's inputs are salted by its run).
  const what = createHmac('sha256', journalKey(env) ?? step)
    .update(
      JSON.stringify([
        where,
        [...inputNames]
          .sort()
          .filter((name) => !HOW.has(name) && !CREDENTIAL.test(name))
          .map((name) => [name, masker.mask(getInput(name).trim())]),
      ]),
    )
    .digest('hex')
    .slice(0, 32);
  return { attempt: Number(attempt), runId, folder: `ci/github/${step}/${what}/` };
}

/**
 * The run an earlier attempt of this step started and wrote to (its journal holds a record: a
 * marker whose run holds none sent nothing, and is passed over); undefined when there is none.
 * Two are refused: which one this job's is cannot be told (legs of a matrix alike but for secrets).
 */
export async function earlierAttemptRun(store: RunStore, at: Attempt): Promise<string | undefined> {
  if (at.attempt < 2) return undefined;
  const marked = (await store.list(at.folder)).map((key) => key.slice(at.folder.length)).filter((id) => id !== '');
  const written: string[] = [];
  for (const id of marked) if ((await store.list(journalPrefix(id))).length > 0) written.push(id);
  if (written.length > 1)
    throw new UsageError(
      'RESUME_REFUSED',
      `attempt ${at.attempt} of workflow run ${at.runId}: earlier attempts of this step with the same inputs started ${written.length} runs in the store (${written.join(', ')}), and which one is this job's cannot be told (jobs of a matrix that differ only in their secrets): nothing was sent`,
      {
        hint: 'start a new workflow run with the journal input naming the run to go on with (and in-doubt: for what it left in doubt); give each job of a matrix an input of its own (vars:) so its runs are told apart',
      },
    );
  return written[0];
}

/** Marks a new run as this attempt's step's, before anything is sent. */
export async function markAttemptRun(store: RunStore, at: Attempt, runId: string): Promise<void> {
  await store.create(`${at.folder}${runId}`, Buffer.alloc(0));
}
