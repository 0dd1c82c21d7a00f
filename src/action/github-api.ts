// The GitHub REST calls the action makes, behind a small interface: the PR comment (one per
// pipeline, found by a hidden marker and updated) and the Deployment with its statuses.

export type DeploymentState = 'in_progress' | 'success' | 'failure' | 'error';

export interface GitHubApi {
  listComments(issue: number): Promise<{ id: number; body?: string | null | undefined }[]>;
  createComment(issue: number, body: string): Promise<void>;
  updateComment(id: number, body: string): Promise<void>;
  createDeployment(input: { ref: string; environment: string; description: string }): Promise<number>;
  createDeploymentStatus(id: number, input: { state: DeploymentState; description: string; logUrl?: string | undefined; environment: string }): Promise<void>;
}

/** The hidden marker that finds a pipeline's comment again. */
export function commentMarker(key: string): string {
  return `<!-- enginectl:${key.replace(/--+/g, '-').replace(/[<>]/g, '')} -->`;
}

/** Creates the comment, or updates the one that holds the marker: one comment per pipeline. */
export async function upsertComment(api: GitHubApi, issue: number, key: string, markdown: string): Promise<'created' | 'updated'> {
  const marker = commentMarker(key);
  const body = `${marker}\n${markdown}`;
  const existing = (await api.listComments(issue)).find((c) => c.body?.startsWith(marker));
  if (existing) {
    await api.updateComment(existing.id, body);
    return 'updated';
  }
  await api.createComment(issue, body);
  return 'created';
}
