// How the engine that runs the workers is told to start them (enginectl shard --format): a GitHub
// job matrix (at most 256 jobs each, so chunks of it as job outputs), GitLab's parallel count and
// the run's id as dotenv, a Kubernetes Indexed Job (completions, the exit codes mapped in its
// podFailurePolicy), or plain command lines. enginectl schedules nothing: the engine does.
import { stringify } from 'yaml';
import { UsageError } from '../errors.ts';
import type { Manifest } from './manifest.ts';

export const FAN_OUT_FORMATS = ['plain', 'github', 'gitlab', 'k8s'] as const;
export type FanOutFormat = (typeof FAN_OUT_FORMATS)[number];

/** GitHub runs at most 256 jobs from one matrix; GitLab's parallel: at most 200. */
export const GITHUB_MATRIX_JOBS = 256;
export const PARALLEL_JOBS_MAX = 200;

export interface FanOut {
  manifest: Manifest;
  /** The worker's command as the user's job runs it, without --shard: a shell line. */
  command: string;
  /** The same command's words after `enginectl`, without the store, the run and --shard: a container's args. */
  args: readonly string[];
  /** Where the run store is, for the worker's environment (k8s). */
  storeUrl: string;
  /** The image a Kubernetes worker runs. */
  image: string;
}

/** Exit codes the engines act on (run --shard): what each means for retrying the index. */
export const SHARD_EXIT_CODES = {
  done: 0,
  /** A site failed, or the rollout halted: deterministic, do not retry the index. */
  failed: 1,
  /** Invalid input (another pipeline, an index out of range): do not retry. */
  invalidInput: 2,
  /** An infrastructure error before this worker sent anything (the store, the lease): safe to retry the index (a store that refused it for permissions is 1: refused the same again). */
  unavailable: 69,
  /** Waited at a barrier past its limit: the same command later goes on. */
  parked: 75,
} as const;

/** A fan-out its engine cannot run (GitLab's `parallel:` of more than 200 jobs): refused, before anything is planned. */
export function refuseUnrunnable(format: FanOutFormat, n: number): void {
  if (format === 'gitlab' && n > PARALLEL_JOBS_MAX)
    throw new UsageError(
      'BAD_ARGUMENTS',
      `shard --format gitlab: GitLab's parallel: runs at most ${PARALLEL_JOBS_MAX} jobs, not ${n}`,
      {
        hint: `--shards ${PARALLEL_JOBS_MAX} or fewer (--assign queue keeps them busy), or run the workers as a Kubernetes Indexed Job (--format k8s)`,
      },
    );
}

export function fanOut(format: FanOutFormat, f: FanOut): string {
  const { manifest } = f;
  const n = manifest.shards;
  const shardArg = (i: number) => `${i}/${n}`;
  switch (format) {
    case 'plain':
      return Array.from({ length: n }, (_, i) => `${f.command} --shard ${shardArg(i + 1)}`).join('\n');
    case 'github': {
      // Job outputs: run, shards, chunks, and matrix-1..K, each a matrix of at most 256 jobs: each
      // job's matrix.shard (I/N, for --shard) and matrix.index (I alone: a file's or an artifact's name, which a / breaks).
      const chunks: { shard: string; index: number }[][] = [];
      for (let i = 1; i <= n; i += GITHUB_MATRIX_JOBS)
        chunks.push(
          Array.from({ length: Math.min(GITHUB_MATRIX_JOBS, n - i + 1) }, (_, j) => ({
            shard: shardArg(i + j),
            index: i + j,
          })),
        );
      return [
        `run=${manifest.run}`,
        `shards=${n}`,
        `chunks=${chunks.length}`,
        ...chunks.map((c, k) => `matrix-${k + 1}=${JSON.stringify({ include: c })}`),
      ].join('\n');
    }
    case 'gitlab':
      refuseUnrunnable(format, n);
      // A dotenv artifact: the later stage's jobs (parallel: N) read the run's id from it.
      return [`ENGINECTL_RUN=${manifest.run}`, `ENGINECTL_SHARDS=${n}`].join('\n');
    case 'k8s':
      return stringify(indexedJob(f));
  }
}

/** A container's arg or env value taken as written: Kubernetes expands `$(NAME)` there and reduces `$$` to `$`. */
const literal = (text: string) => text.replace(/\$/g, '$$$$');

/** A Kubernetes Indexed Job of the run's workers: one pod per index, run --shard auto reading the index the Job gives each pod. */
export function indexedJob(f: FanOut): Record<string, unknown> {
  const { manifest } = f;
  const name = `enginectl-${manifest.run.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`.slice(0, 52);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, labels: { 'app.kubernetes.io/name': 'enginectl', 'enginectl/run': manifest.run.toLowerCase() } },
    spec: {
      completionMode: 'Indexed',
      completions: manifest.shards,
      parallelism: manifest.shards,
      // An index retried on its own: an infrastructure error before any write.
      backoffLimitPerIndex: 3,
      podFailurePolicy: {
        rules: [
          // A site failed or the rollout halted (1), invalid input (2): retrying the index changes nothing.
          {
            action: 'FailIndex',
            onExitCodes: {
              containerName: 'worker',
              operator: 'In',
              values: [SHARD_EXIT_CODES.failed, SHARD_EXIT_CODES.invalidInput],
            },
          },
          // Parked at a barrier: a new pod goes on from where the run stands, without counting as a failure.
          {
            action: 'Ignore',
            onExitCodes: { containerName: 'worker', operator: 'In', values: [SHARD_EXIT_CODES.parked] },
          },
          // 69 (nothing sent, or a lease lapsed: what it left is resumed with verify) and anything else count against backoffLimitPerIndex: retried.
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
        ],
      },
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'worker',
              image: f.image,
              args: [...f.args, '--shard', 'auto'].map(literal),
              env: [
                { name: 'ENGINECTL_STORE', value: literal(f.storeUrl) },
                { name: 'ENGINECTL_RUN', value: literal(manifest.run) },
              ],
            },
          ],
        },
      },
    },
  };
}
