// What the action records on GitHub besides its log: the report as a pull request comment
// (updated in place on the next run), and a Deployment with its statuses. A failure to record
// is a warning: the run's outcome does not depend on GitHub's API.
import { describeSelection, type Selection } from '../pipeline/selection.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Masker } from '../runner/masker.ts';
import type { ActionDef } from './definitions.ts';
import { upsertComment, type DeploymentState, type GitHubApi } from './github-api.ts';
import type { GitHubContext } from './github-context.ts';
import { booleanInput } from './inputs.ts';
import type { Toolkit } from './toolkit.ts';

export interface GitHubDeps {
  kit: Toolkit;
  context: GitHubContext;
  /** The GitHub API for a token; called only when a PR comment or a Deployment is asked for. */
  github(token: string): GitHubApi;
}

/** `key`: what the comment is of (a pipeline file and what the run was limited to); one comment per key and pull request. */
export async function prComment(deps: GitHubDeps, key: string, markdown: string, masker: Masker): Promise<void> {
  const { kit, context } = deps;
  if (!booleanInput(kit.getInput, 'pr-comment')) return;
  if (context.pullRequest === undefined) {
    kit.info(`pr-comment: the ${context.eventName || 'current'} event has no pull request; no comment was written`);
    return;
  }
  try {
    const done = await upsertComment(
      deps.github(kit.getInput('github-token')),
      context.pullRequest,
      masker.mask(key),
      markdown,
    );
    kit.info(`pr-comment: ${done} the report comment on #${context.pullRequest}`);
  } catch (error) {
    kit.warning(masker.mask(`pr-comment: the comment could not be written: ${(error as Error).message}`), {
      title: 'enginectl',
    });
  }
}

/** A run of a store, named in its Deployment's payload: `resumed`, this job goes on with it (it parked, failed or was cut short). */
export interface DeployedRun {
  id: string;
  resumed: boolean;
}

/** The most Deployments of the environment read to find a stored run's (newest first). */
const DEPLOYMENTS_SEARCHED = 1000;

const runOf = (payload: unknown) =>
  payload && typeof payload === 'object' ? (payload as { enginectl?: { run?: unknown } }).enginectl?.run : undefined;

/**
 * The Deployment a stored run's job started, found by the run's id in its payload: `id` undefined
 * when there is none; `cut` when the search stopped at its limit (it may be older).
 */
async function runDeployment(
  api: GitHubApi,
  environment: string,
  runId: string,
): Promise<{ id?: number | undefined; cut: boolean }> {
  let read = 0;
  for await (const d of api.deployments(environment)) {
    if (runOf(d.payload) === runId) return { id: d.id, cut: false };
    if (++read >= DEPLOYMENTS_SEARCHED) return { cut: true };
  }
  return { cut: false };
}

export async function startDeployment(
  deps: GitHubDeps,
  name: string,
  environment: string,
  masker: Masker,
  run?: DeployedRun,
): Promise<{ id: number } | undefined> {
  const { kit, context } = deps;
  const warn = (message: string) => kit.warning(masker.mask(message), { title: 'enginectl' });
  // Going on with a run of the store (parked, or resumed): the Deployment its job started is the one this job ends.
  let notFound: 'cut' | 'none' | undefined;
  if (run?.resumed) {
    const found = await runDeployment(deps.github(kit.getInput('github-token')), environment, run.id).catch(
      (error: unknown) => {
        warn(
          `deployment-environment: the Deployment of run ${run.id} could not be looked up (a new one is recorded): ${(error as Error).message}`,
        );
        return undefined;
      },
    );
    if (found?.id !== undefined) return inProgress(deps, found.id, name, environment, masker);
    if (found) notFound = found.cut ? 'cut' : 'none';
  }
  let id: number;
  try {
    id = await deps.github(kit.getInput('github-token')).createDeployment({
      ref: context.sha || context.ref,
      environment,
      description: `enginectl: ${name}`,
      payload: run && { enginectl: { run: run.id } },
    });
  } catch (error) {
    kit.warning(
      masker.mask(`deployment-environment: the Deployment could not be recorded: ${(error as Error).message}`),
      { title: 'enginectl' },
    );
    return undefined;
  }
  // Never silent: a Deployment an earlier job of the run left in progress stays so, and this one is
  // another. None names the run: the job that parked it (or was cut short) recorded none, or ran an
  // earlier enginectl, whose Deployment names no run.
  if (notFound === 'cut' && run)
    warn(
      `deployment-environment: the Deployment of run ${run.id} is not among the ${DEPLOYMENTS_SEARCHED} newest of environment ${environment}: a new one is recorded (${id}); one it had before is left as it was`,
    );
  if (notFound === 'none' && run)
    warn(
      `deployment-environment: no Deployment of environment ${environment} names run ${run.id} (the job that began it recorded none, or ran an earlier enginectl, whose Deployments name no run): a new one is recorded (${id}); one an earlier job of the run left in progress stays so`,
    );
  return inProgress(deps, id, name, environment, masker);
}

/** The Deployment exists on GitHub: in progress; a status it refuses is said as such, and its final one is still recorded. */
async function inProgress(
  deps: GitHubDeps,
  id: number,
  name: string,
  environment: string,
  masker: Masker,
): Promise<{ id: number }> {
  const { kit, context } = deps;
  try {
    await deps.github(kit.getInput('github-token')).createDeploymentStatus(id, {
      state: 'in_progress',
      description: `running ${name}`,
      logUrl: context.runUrl,
      environment,
    });
    kit.info(`deployment ${id} to ${environment}: in_progress`);
  } catch (error) {
    kit.warning(
      masker.mask(
        `deployment-environment: Deployment ${id} to ${environment} was created, but its in_progress status could not be recorded: ${(error as Error).message}`,
      ),
      { title: 'enginectl' },
    );
  }
  return { id };
}

export async function finishDeployment(
  deps: GitHubDeps,
  deployment: { id: number },
  state: DeploymentState,
  description: string,
  environment: string,
  masker: Masker,
): Promise<void> {
  try {
    await deps.github(deps.kit.getInput('github-token')).createDeploymentStatus(deployment.id, {
      state,
      description: masker.mask(description),
      logUrl: deps.context.runUrl,
      environment,
    });
    deps.kit.info(`deployment ${deployment.id} to ${environment}: ${state}`);
  } catch (error) {
    deps.kit.warning(
      masker.mask(`deployment-environment: the final status could not be recorded: ${(error as Error).message}`),
      { title: 'enginectl' },
    );
  }
}

/**
 * What a PR comment is of: a single-step action's target (its server and database), or the pipeline file and what the run was
 * limited to. A job of one site keeps its own comment; the merge job's (and a run of every
 * instance's) is the pipeline's.
 */
export function commentKey(def: ActionDef, pipeline: Pipeline, selection: Selection): string {
  if (def.uses) {
    // The target's server and database name it: its token or password are secrets, and a rotated one is the same target.
    const target = pipeline.steps[0]?.with.target as { server?: unknown; database?: unknown } | undefined;
    return `${def.id}:${target ? `${String(target.server)}/${String(target.database)}` : ''}`;
  }
  const limited = describeSelection(selection);
  return limited ? `${pipeline.file} (${limited})` : pipeline.file;
}
