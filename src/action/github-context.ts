// The workflow run as the action sees it, read from the runner's environment variables and the
// event payload (GITHUB_EVENT_PATH): no global state, so tests pass their own.

export interface GitHubContext {
  owner: string;
  repo: string;
  sha: string;
  ref: string;
  eventName: string;
  /** The pull request of a pull_request(_target) event. */
  pullRequest: number | undefined;
  /** Link to the workflow run, for Deployment statuses. */
  runUrl: string | undefined;
  /** Paths of annotations are relative to this (the repository checkout). */
  workspace: string | undefined;
}

export function githubContext(env: Readonly<Record<string, string | undefined>>, event: unknown): GitHubContext {
  const [owner = '', repo = ''] = (env.GITHUB_REPOSITORY ?? '').split('/');
  const payload = (event && typeof event === 'object' ? event : {}) as { pull_request?: { number?: unknown } };
  const number = payload.pull_request?.number;
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com';
  return {
    owner,
    repo,
    sha: env.GITHUB_SHA ?? '',
    ref: env.GITHUB_REF ?? '',
    eventName: env.GITHUB_EVENT_NAME ?? '',
    pullRequest: typeof number === 'number' ? number : undefined,
    runUrl:
      env.GITHUB_RUN_ID && env.GITHUB_REPOSITORY
        ? `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
        : undefined,
    workspace: env.GITHUB_WORKSPACE,
  };
}
