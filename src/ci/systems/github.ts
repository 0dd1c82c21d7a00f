// GitHub Actions: workflow commands (for the CLI on a GitHub runner; the actions use @actions/core).
import { neutralise } from '../../text/neutralise.ts';
import type { CiSystem } from '../system.ts';

const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const prop = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export const github: CiSystem = {
  name: 'github',
  detect: (env) => env.GITHUB_ACTIONS === 'true',
  // The person who started this run: on a re-run GitHub keeps GITHUB_ACTOR (the first run's) and names the re-runner here.
  actor: (env) => env.GITHUB_TRIGGERING_ACTOR || env.GITHUB_ACTOR,
  // The context fields GitHub's OIDC token mirrors as claims (the environment is not in a job's variables).
  claims: (env) => ({ repository: env.GITHUB_REPOSITORY, ref: env.GITHUB_REF, workflow: env.GITHUB_WORKFLOW }),
  workspace: (env) => env.GITHUB_WORKSPACE,
  runUrl: (env) =>
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined,
  // The workflow run: "Re-run all jobs" and "Re-run failed jobs" keep GITHUB_RUN_ID (one more GITHUB_RUN_ATTEMPT).
  runKey: (env) =>
    env.GITHUB_ACTIONS === 'true' && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `github ${env.GITHUB_REPOSITORY} run ${env.GITHUB_RUN_ID}`
      : undefined,
  jobMatrixLimit: { jobs: 256, what: 'a GitHub Actions job matrix' },
  sectionStart: (_k, title) => `::group::${esc(neutralise(title))}`,
  sectionEnd: () => '::endgroup::',
  issue: (kind, message, where) => {
    const props = [
      where?.file && `file=${prop(where.file)}`,
      where?.line && `line=${where.line}`,
      where?.col && `col=${where.col}`,
    ]
      .filter(Boolean)
      .join(',');
    return `::${kind}${props ? ` ${props}` : ''}::${esc(neutralise(message))}`;
  },
  // 10 errors and 10 warnings of a step are shown, the rest dropped: the others are counted.
  annotationsLimited: true,
  variable: () => undefined,
  summary: (env) => (env.GITHUB_STEP_SUMMARY ? { append: env.GITHUB_STEP_SUMMARY } : undefined),
  finish: () => [],
  mask: (secret) => `::add-mask::${esc(secret)}`,
};
