// GitHubApi over Octokit (@actions/github): loaded only by the action bundles.
import { getOctokit } from '@actions/github';
import type { GitHubApi } from './github-api.ts';

export function octokitApi(token: string, owner: string, repo: string, baseUrl: string | undefined): GitHubApi {
  const octokit = getOctokit(token, baseUrl ? { baseUrl } : {});
  return {
    async listComments(issue) {
      return octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issue, per_page: 100 });
    },
    async createComment(issue, body) {
      await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body });
    },
    async updateComment(id, body) {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body });
    },
    async createDeployment({ ref, environment, description }) {
      const response = await octokit.rest.repos.createDeployment({ owner, repo, ref, environment, description, auto_merge: false, required_contexts: [] });
      if (response.status !== 201 || !('id' in response.data)) throw new Error(`GitHub did not create the deployment: ${JSON.stringify(response.data).slice(0, 200)}`);
      return response.data.id;
    },
    async createDeploymentStatus(id, { state, description, logUrl, environment }) {
      await octokit.rest.repos.createDeploymentStatus({ owner, repo, deployment_id: id, state, description: description.slice(0, 140), environment, ...(logUrl ? { log_url: logUrl } : {}) });
    },
  };
}
