// What a CI system is to enginectl: how to tell it runs us, the facts its environment holds (who
// runs the job, the checkout's root, the run's page, its job-matrix limit), and its conventions as
// lines to print (collapsible sections per step, error and warning annotations, outputs as
// variables, the secrets for its own log masking, the final status) and where its job summary goes.
// Every piece of text in them is untrusted and neutralised first; only the command syntax is ours.
// Every fact of a system is in its file in systems/: nothing else in src/ reads a CI's variables.
import type { Env } from '../environment.ts';
import type { CiVariable } from './variables.ts';
import type { Where } from '../log/sink.ts';

export type { Env } from '../environment.ts';

/** Where the job summary goes: appended to a file the system reads, or a file it is told of in `finish` (in `dir` unless a summary file was asked for). */
export type SummaryPlace = { append: string } | { uploadFrom: string };

/** How a run (or a fleet) ended, as the lines that end its job say it: as the report heads it. */
export interface CiEnd {
  outcome: 'success' | 'failure' | 'cancelled' | 'under-way';
  /** It parked (a run's exit 75): what it waits for, in words (masked). Never a success. */
  parked?: string | undefined;
  /** A success that left a write in doubt no one decided: the job exits 1. Never a success. */
  inDoubt?: boolean | undefined;
  /** It succeeded, but a step failed and continue-on-error let it pass. */
  withIssues?: boolean | undefined;
}

/** A worker's index as an engine gives it (run --shard auto). */
export interface ShardIndexFound {
  /** 0-based; NaN when the variable is not a number. */
  index: number;
  total: number | undefined;
  /** What it was read from, for a person. */
  from: string;
  /** Why it does not fit run `run` of `shards` shards, in the engine's terms (its variable, what to set there); undefined when it fits. */
  misfit(run: string, shards: number): { message: string; hint: string } | undefined;
}

export interface CiSystem {
  name: string;
  /** True when its environment variables say this system runs the job. */
  detect(env: Env): boolean;
  /** Who runs the job (the user who started it), when its environment says. */
  actor(env: Env): string | undefined;
  /**
   * What else its environment says of who runs the job, as its OIDC token's claims would
   * (repository, ref, environment, workflow): matched by override-freeze: rules, never verified.
   */
  claims?(env: Env): Partial<Record<'repository' | 'ref' | 'environment' | 'workflow', string | undefined>>;
  /** The checkout's root, which annotation paths are relative to. */
  workspace(env: Env): string | undefined;
  /** The page of the running job or run, for a lease's holder. */
  runUrl(env: Env): string | undefined;
  /**
   * The CI run the job belongs to, the same on every re-run and retry of it (GitHub: the repository
   * and GITHUB_RUN_ID; GitLab: the project and CI_PIPELINE_ID): enginectl shard plans one sharded
   * run per key, and prints it again when the plan job runs again.
   */
  runKey?(env: Env): string | undefined;
  /** A parallel job's index (0-based) and how many there are, when the system runs the job as one of several (run --shard auto). */
  shardIndex?(env: Env): ShardIndexFound | undefined;
  /** The most jobs one job matrix of this system runs, and what that matrix is called. */
  jobMatrixLimit?: { jobs: number; what: string };
  sectionStart(key: string, title: string, nowMs: number): string | undefined;
  sectionEnd(key: string, nowMs: number): string | undefined;
  issue(kind: 'error' | 'warning', message: string, where?: Where): string | undefined;
  /** It shows only the first annotations of a step (GitHub: 10 of each kind): the others are counted (annotation-budget.ts). */
  annotationsLimited?: boolean;
  variable(v: CiVariable): string | undefined;
  /** Where its job summary goes, when it shows one. */
  summary(env: Env, tempDir: string): SummaryPlace | undefined;
  /** Lines after the run: the summary upload, the task result, saying what the report heads the run. */
  finish(end: CiEnd, summaryFile: string | undefined): string[];
  /** Registers a secret with the CI's own log masking, when it has one. */
  mask(secret: string): string | undefined;
}

/** A system with none of the conventions: the base of the simpler ones. */
export const NO_CONVENTIONS: Omit<CiSystem, 'name' | 'detect'> = {
  actor: () => undefined,
  workspace: () => undefined,
  runUrl: () => undefined,
  sectionStart: () => undefined,
  sectionEnd: () => undefined,
  issue: () => undefined,
  variable: () => undefined,
  summary: () => undefined,
  finish: () => [],
  mask: () => undefined,
};
