// What a worker of a sharded run is given: the store and the run, its index, the pipeline and its
// sources, the environment, and the parts it runs with (masker, logger, clock, signal), with how
// long it may wait in all, how often it reads the store, and its lease's ttl.
import type { WindowOverride } from '../runner/run-context.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { RunLogger } from '../runner/run-logger.ts';
import type { Masker } from '../runner/masker.ts';
import type { RunStore } from '../store/store.ts';
import type { Env } from '../environment.ts';
import type { Clock } from './clock.ts';
import type { Source } from './pipeline-input.ts';
import type { WaitBudget } from '../shard/wait-budget.ts';

export interface ShardWorkerRequest {
  store: RunStore;
  storeUrl: string;
  run: string;
  /** This worker's index, 0-based, and the total it was told (checked against the manifest). */
  index: number;
  total: number | undefined;
  /** --shard auto: the engine's words for an index the run does not have (its variable, what to set). */
  misfit?: ((run: string, shards: number) => { message: string; hint: string } | undefined) | undefined;
  pipeline: Pipeline;
  sources: readonly Source[];
  vars: Readonly<Record<string, unknown>>;
  env: Env;
  cwd: string;
  emulatorUrl?: string | undefined;
  /** --override-freeze --reason: each site's writes let through a freeze, recorded in its journal. */
  windowOverride?: WindowOverride | undefined;
  masker: Masker;
  logger: RunLogger;
  signal: AbortSignal;
  clock: Clock;
  stopwatch?: (() => number) | undefined;
  /** What it may wait in all (at barriers, on bakes, for windows, for a gone worker's lapse) before it parks: one per worker process. */
  waitBudget: WaitBudget;
  /** The longest it sleeps between reads of the store while waiting; its lease's ttl. */
  pollMs: number;
  ttlMs: number;
  say(line: string): void;
  /** Told as the worker starts (or resumes) its first site: from then on it may have sent something. */
  onStart?(): void;
}
