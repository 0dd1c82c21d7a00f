// GitHubApi over Octokit (@actions/github): loaded only by the action bundles. Every call has a
// time limit and follows the run's cancellation: a GitHub API that never answers delays the
// deployment by that limit only, and never outlives SIGTERM (after it, a final status gets a short
// grace to be told).
import { getOctokit } from '@actions/github';
import type { GitHubApi } from './github-api.ts';

export interface CallLimits {
  /** The run's signal: aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  /** The longest a call may take (default 30 s). */
  timeoutMs?: number;
  /** The longest a call made after cancellation may take (default 5 s). */
  afterCancelMs?: number;
  /** A signal aborted once `ms` passed (AbortSignal.timeout; a test fires its own). */
  timer?: (ms: number) => AbortSignal;
}

export function octokitApi(
  token: string,
  owner: string,
  repo: string,
  baseUrl: string | undefined,
  limits: CallLimits,
): GitHubApi {
  const octokit = getOctokit(token, baseUrl ? { baseUrl } : {});
  const timer = limits.timer ?? ((ms: number) => AbortSignal.timeout(ms));
  const request = () => ({
    signal: limits.signal.aborted
      ? timer(limits.afterCancelMs ?? 5_000)
      : AbortSignal.any([limits.signal, timer(limits.timeoutMs ?? 30_000)]),
  });
  return {
    async listComments(issue) {
      return octokit.paginate(octokit.rest.issues.listComments, {
        owner,
        repo,
        issue_number: issue,
        per_page: 100,
        request: request(),
      });
    },
    async viewerLogin() {
      const data = await octokit.graphql<{ viewer: { login: string } }>('query { viewer { login } }', {
        request: request(),
      });
      return data.viewer.login;
    },
    async createComment(issue, body) {
      await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body, request: request() });
    },
    async updateComment(id, body) {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body, request: request() });
    },
    async createDeployment({ ref, environment, description, payload }) {
      const response = await octokit.rest.repos.createDeployment({
        owner,
        repo,
        ref,
        environment,
        description,
        ...(payload ? { payload } : {}),
        auto_merge: false,
        required_contexts: [],
        request: request(),
      });
      if (response.status !== 201 || !('id' in response.data))
        throw new Error(`GitHub did not create the deployment: ${JSON.stringify(response.data).slice(0, 200)}`);
      return response.data.id;
    },
    async *deployments(environment) {
      const pages = octokit.paginate.iterator(octokit.rest.repos.listDeployments, {
        owner,
        repo,
        environment,
        per_page: 100,
        request: request(),
      });
      for await (const page of pages) for (const d of page.data) yield { id: d.id, payload: d.payload };
    },
    async createDeploymentStatus(id, { state, description, logUrl, environment }) {
      await octokit.rest.repos.createDeploymentStatus({
        owner,
        repo,
        deployment_id: id,
        state,
        description: cutAt(description, 140),
        environment,
        ...(logUrl ? { log_url: logUrl } : {}),
        request: request(),
      });
    },
  };
}

/** `text` cut to `max` UTF-16 units (GitHub's limit of a status's description), never inside a surrogate pair. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
