// GitLab CI: collapsed sections (ANSI-framed markers); annotations are lines; JUnit, dotenv and the
// summary go as artifacts.
import { neutralise } from '../../text/neutralise.ts';
import { NO_CONVENTIONS, type CiSystem } from '../system.ts';

const sectionName = (key: string) =>
  key
    .toLowerCase()
    .replace(/[^a-z0-9_.-]/g, '_')
    .slice(0, 64);

export const gitlab: CiSystem = {
  ...NO_CONVENTIONS,
  name: 'gitlab',
  detect: (env) => env.GITLAB_CI === 'true',
  actor: (env) => env.GITLAB_USER_LOGIN,
  // The variables GitLab's ID token mirrors as claims (project_path, ref, environment).
  claims: (env) => ({
    repository: env.CI_PROJECT_PATH,
    ref: env.CI_COMMIT_REF_NAME,
    environment: env.CI_ENVIRONMENT_NAME,
  }),
  workspace: (env) => env.CI_PROJECT_DIR,
  runUrl: (env) => env.CI_JOB_URL,
  // The pipeline: a job retried (by hand, or retry:) or the pipeline retried keeps CI_PIPELINE_ID.
  runKey: (env) =>
    env.GITLAB_CI === 'true' && env.CI_PROJECT_ID && env.CI_PIPELINE_ID
      ? `gitlab ${env.CI_SERVER_HOST ?? ''} project ${env.CI_PROJECT_ID} pipeline ${env.CI_PIPELINE_ID}`
      : undefined,
  jobMatrixLimit: { jobs: 200, what: 'a GitLab parallel:matrix' },
  // parallel: N numbers its jobs 1 to N.
  shardIndex: (env) => {
    const { CI_NODE_INDEX: given, CI_NODE_TOTAL: told } = env;
    if (given === undefined) return undefined;
    const index = Number(given) - 1;
    const total = told === undefined ? undefined : Number(told);
    return {
      index,
      total,
      from: `CI_NODE_INDEX=${given}${told === undefined ? '' : ` CI_NODE_TOTAL=${told}`}`,
      misfit: (run, shards) => {
        const hint = `set the job's parallel: to ${shards}, the shards enginectl shard --shards planned`;
        if (total !== undefined && !Number.isInteger(total))
          return { message: `CI_NODE_TOTAL=${told} is not a number of parallel jobs`, hint };
        if (total !== undefined && total !== shards)
          return {
            message: `CI_NODE_TOTAL=${told}: this job runs as ${told} parallel jobs, but run ${run} has ${shards} shards`,
            hint,
          };
        if (index >= shards)
          return {
            message: `CI_NODE_INDEX=${given} is past run ${run}'s ${shards} shards (GitLab counts from 1: 1 to ${shards})`,
            hint,
          };
        return undefined;
      },
    };
  },
  sectionStart: (key, title, now) =>
    `\x1b[0Ksection_start:${Math.floor(now / 1000)}:${sectionName(key)}[collapsed=true]\r\x1b[0K${neutralise(title)}`,
  sectionEnd: (key, now) => `\x1b[0Ksection_end:${Math.floor(now / 1000)}:${sectionName(key)}\r\x1b[0K`,
};
