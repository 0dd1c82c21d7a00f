// The GitHub REST calls the action makes, behind a small interface: the PR comment (one per
// pipeline, found by its hidden marker and its author, the token's own identity, and updated) and
// the Deployment with its statuses.

export type DeploymentState = 'in_progress' | 'success' | 'failure' | 'error';

export interface GitHubApi {
  listComments(
    issue: number,
  ): Promise<
    { id: number; body?: string | null | undefined; user?: { login?: string | undefined } | null | undefined }[]
  >;
  /** The login of the token in use (github-actions[bot] for the workflow token). */
  viewerLogin(): Promise<string>;
  createComment(issue: number, body: string): Promise<void>;
  updateComment(id: number, body: string): Promise<void>;
  /** `payload`: what the Deployment is of (a stored run's id), for the job that goes on with a parked run to find it again. */
  createDeployment(input: {
    ref: string;
    environment: string;
    description: string;
    payload?: Record<string, unknown> | undefined;
  }): Promise<number>;
  /** The Deployments to `environment`, newest first, page by page (the caller stops when it has found what it looks for). */
  deployments(environment: string): AsyncIterable<{ id: number; payload?: unknown }>;
  createDeploymentStatus(
    id: number,
    input: { state: DeploymentState; description: string; logUrl?: string | undefined; environment: string },
  ): Promise<void>;
}

/** The hidden marker that finds a pipeline's comment again. */
export function commentMarker(key: string): string {
  return `<!-- enginectl:${key.replace(/--+/g, '-').replace(/[<>]/g, '')} -->`;
}

/** A login as REST (github-actions[bot]) and GraphQL (github-actions) spell a bot alike. */
const loginOf = (login: string | undefined) => (login ?? '').replace(/\[bot\]$/, '').toLowerCase();

/**
 * Creates the comment, or updates the one that holds the marker and was written by this token's
 * identity: one comment per pipeline. Anyone who may comment can copy the marker into a comment of
 * their own; theirs is left alone.
 */
export async function upsertComment(
  api: GitHubApi,
  issue: number,
  key: string,
  markdown: string,
): Promise<'created' | 'updated'> {
  const marker = commentMarker(key);
  const body = `${marker}\n${markdown}`;
  const [me, comments] = await Promise.all([api.viewerLogin().then(loginOf), api.listComments(issue)]);
  const existing = comments.find(
    (c) => c.body?.startsWith(marker) && me !== '' && loginOf(c.user?.login ?? undefined) === me,
  );
  if (existing) {
    await api.updateComment(existing.id, body);
    return 'updated';
  }
  await api.createComment(issue, body);
  return 'created';
}
