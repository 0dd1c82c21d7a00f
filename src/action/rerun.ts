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
//
// Where a server's URL or a target comes from a secret (url: ${{ secrets.ENGINE_URL }}, each
// environment of a matrix its own), its masked form is alike in every job: with
// ENGINECTL_JOURNAL_KEY, WHAT is of the URLs (without credentials) and targets (without token or
// password) unmasked, which the key keeps from a guess (as a saved plan's fingerprints,
// journal/fingerprint.ts; the text begins with "[", so it stands for no journal's seal), and each
// environment's job has its own folder. Without the key a re-run cannot tell whose an earlier run
// is (another environment's, whose job alone got to write): it is refused (RESUME_REFUSED) rather
// than gone on with. A first attempt still marks its run, so that a re-run knows there is one.
import { createHash, createHmac } from 'node:crypto';
import { calledAt } from '../api/called-at.ts';
import { journalPrefix } from '../journal/replica.ts';
import { JOURNAL_KEY_VARIABLE, journalKey } from '../journal/seal.ts';
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
  /** The places that come from a secret when there is no key to tell them by ("server main's URL"): an earlier run is not gone on with. */
  untold?: string[] | undefined;
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
  // from env), masked, credentials left out: a job of another environment is another run. Where a
  // secret is in it, unmasked under the key, or else named (untold, see above). When it cannot be
  // told (a secret not set), nothing is marked: the run refuses as it would.
  const key = journalKey(env);
  let where: unknown;
  const untold: string[] = [];
  try {
    const prepared = prepareRun(loaded.pipeline, loaded.env, masker);
    const servers = [...prepared.servers.values()].map((s) => ({ s, bare: calledAt(s.url) }));
    const targets = Object.entries(prepared.targets).map(([name, target]) => ({
      name,
      text: JSON.stringify(Object.entries(target).filter(([k]) => !/token|password/i.test(k))),
    }));
    // The places a secret is in: alike, masked, in every environment's job.
    for (const { s, bare } of servers) if (masker.mask(bare) !== bare) untold.push(`server ${s.name}'s URL`);
    for (const { name, text } of targets) if (masker.mask(text) !== text) untold.push(`target ${name}`);
    where =
      untold.length > 0 && key !== undefined
        ? { unmasked: [servers.map(({ s, bare }) => [s.name, bare]), targets.map(({ name, text }) => [name, text])] }
        : {
            servers: servers.map(({ s }) => [s.name, masker.mask(s.url)]),
            targets: targets.map(({ name, text }) => [name, masker.mask(text)]),
          };
  } catch {
    return undefined;
  }
  const step = digest([env.GITHUB_REPOSITORY ?? '', runId, env.GITHUB_JOB ?? '', env.GITHUB_ACTION ?? '']);
  // Keyed by the journal's key when set: then whoever reads the store cannot test a guess of a value
  // the masker does not know (a short value in vars:). Without the key, by the step's digest, which
  // is in the marker's path: a salt (each workflow run's own), no secret, so such a guess can be
  // tested, as it can of the journal's salted inputs hash beside it in the same store.
  const what = createHmac('sha256', key ?? step)
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
  return {
    attempt: Number(attempt),
    runId,
    folder: `ci/github/${step}/${what}/`,
    ...(untold.length > 0 && key === undefined ? { untold } : {}),
  };
}

/**
 * The run an earlier attempt of this step started and wrote to (its journal holds a record: a
 * marker whose run holds none sent nothing, and is passed over); undefined when there is none.
 * Two are refused: which one this job's is cannot be told (legs of a matrix alike but for secrets);
 * and one where a place comes from a secret and there is no key (another environment's job may have
 * written it alone).
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
        hint: `start a new workflow run with the journal input naming the run to go on with (and in-doubt: for what it left in doubt); give each job of a matrix an input of its own (vars:)${at.untold ? `, or set ${JOURNAL_KEY_VARIABLE} (a repository secret),` : ''} so its runs are told apart`,
      },
    );
  if (written.length === 1 && at.untold)
    throw new UsageError(
      'RESUME_REFUSED',
      `attempt ${at.attempt} of workflow run ${at.runId}: an earlier attempt of this step with the same inputs started run ${written[0]} in the store, and whether it is this job's cannot be told: ${at.untold.join(', ')} ${at.untold.length > 1 ? 'come' : 'comes'} from a secret and ${JOURNAL_KEY_VARIABLE} is not set, so runs of jobs alike but for their secrets (a matrix over environments) cannot be told apart: nothing was sent`,
      {
        hint: `set ${JOURNAL_KEY_VARIABLE} (a repository secret, e.g. openssl rand -hex 32) so that re-runs tell them apart, or start a new workflow run with the journal input naming the run to go on with (and in-doubt: for what it left in doubt)`,
      },
    );
  return written[0];
}

/** Marks a new run as this attempt's step's, before anything is sent. */
export async function markAttemptRun(store: RunStore, at: Attempt, runId: string): Promise<void> {
  await store.create(`${at.folder}${runId}`, Buffer.alloc(0));
}
