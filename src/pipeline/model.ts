// The normalised pipeline the runner executes. Text the file wrote with ${{ }} is compiled:
// a Template (resolved at run time, when steps' outputs exist) or an Expression (a condition).
// Every plain string is data: nothing parses it again.
import type { Expression, Template } from '../expr/index.ts';
import type { ScheduleSpec } from '../schedule/spec.ts';
import type { Position } from './yaml-doc.ts';

/** A string of the file: plain text, or a Template. */
export type Text = string | Template;

/** A target of the file, its fields as written (compiled). */
export interface TargetSpec {
  server: Text;
  database: Text;
  token?: Text | undefined;
  username?: Text | undefined;
  password?: Text | undefined;
}

export interface ServerDef {
  name: string;
  url: Text;
  username?: Text | undefined;
  password?: Text | undefined;
  timeoutMs?: number | undefined;
  maxResponseBytes?: number | undefined;
  caFile?: Text | undefined;
  insecureSkipTlsVerify?: boolean | Text | undefined;
  allowInsecureHttp?: boolean | Text | undefined;
}

export interface RetryPolicy {
  attempts: number;
  delayMs: number;
  backoff: number;
  /** After an attempt whose fate is unknown: stop (the default), or send the write again (retry.in-doubt: retry). */
  inDoubt: 'stop' | 'retry';
}

export interface Step {
  /** Index in the file's steps, from 0. */
  index: number;
  id: string | undefined;
  name: Text;
  uses: string;
  /** The inputs, compiled: Templates to resolve, Expressions for condition inputs, data. */
  with: Record<string, unknown>;
  /** The condition: success() unless the file says otherwise. */
  if: Expression;
  continueOnError: boolean;
  /** `on-failure:` in a rollout, its failure parks the run for a decision (decide) or not (halt); absent: the rollout's. */
  onFailure?: 'halt' | 'decide' | undefined;
  timeoutMs: number | undefined;
  /** `longest:` how long its write can take at the server, at most: the bound verify needs for "not applied". */
  longestMs?: number | undefined;
  /** `expected:` how long its write is expected to take: wins over earlier durations when admitting it into a window. */
  expectedMs?: number | undefined;
  retry: RetryPolicy | undefined;
  matrix: Record<string, (string | number | boolean)[]> | undefined;
  maxParallel: number;
  failFast: boolean;
  /** The server it calls: a name, or an expression over matrix, vars and env; undefined for steps that call none. */
  server: Text | undefined;
  position: Position;
}

/** What a run's instances use (reach.ts): the steps with an instance selected, the servers, targets and vars they read. */
export interface Reach {
  steps: ReadonlySet<number>;
  servers: ReadonlySet<string>;
  targets: ReadonlySet<string>;
  vars: ReadonlySet<string>;
}

export interface Pipeline {
  file: string;
  name: Text;
  /** Compiled vars of the file, overridden by --var values (data). */
  vars: Record<string, unknown>;
  /**
   * The vars the file makes of a secret, or of such a var (expr/secret-sink.ts refsReadSecret): each
   * holds a secret, also when --var gives it. Decided once, here; the run and the file's hash ask it.
   */
  secretVars: ReadonlySet<string>;
  /** The environment variables the file reads as secrets.NAME: names are static. */
  secrets: readonly string[];
  servers: Record<string, ServerDef>;
  targets: Record<string, TargetSpec>;
  steps: Step[];
  /** Waves over a matrix key (rollout.ts); absent: the steps in file order. */
  rollout?: Rollout | undefined;
  /** `lease:` one run at a time for the fleet (store/lease.ts). */
  lease?:
    | { name: string; ttlMs: number; waitMs: number; over?: string | undefined; readonly position?: Position }
    | undefined;
  /** `windows:`, `freezes:`: when its writes may run (schedule/); absent: at any time. */
  schedule?: ScheduleSpec | undefined;
  /** `park-after:` with a run store, a wait longer than this parks the run (default 10 minutes). */
  parkAfterMs?: number | undefined;
  /** `park: { keep-lease: true }`: the fleet lease is kept while parked. */
  keepLeaseParked?: boolean | undefined;
  /**
   * What the instances of a limited run (--only, --skip) reach: only those servers, targets and
   * vars are resolved. Absent: everything.
   */
  reach?: Reach | undefined;
}

/** A wave as written: values, a count, a share of all values (0.1 for 10%), or the rest. */
export type WaveSpec =
  { values: readonly (string | number | boolean)[] } | { count: number } | { share: number } | { rest: true };

/** A failure budget: a count, or a share of the wave (0.1 for 10%). */
export type Budget = { count: number } | { share: number };

export interface Rollout {
  /** The matrix key the waves split. */
  over: string;
  waves: WaveSpec[];
  maxParallel: number;
  maxFailures: Budget;
  analysis?:
    | { gates: string[]; count: number; intervalMs: number; failureLimit: number; bakeMs: number | readonly number[] }
    | undefined;
  /** `on-failure:` (the rollout's, else the pipeline's): halt, or park for an operator's decision (with a run store). */
  onFailure?: 'halt' | 'decide' | undefined;
}
