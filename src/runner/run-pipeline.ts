// Executes a normalised pipeline: prepare (contexts, servers, targets; a client for every server
// a step calls) -> the steps in file order, each one's matrix instances at most max-parallel at a
// time (fail-fast, resume's carried instances) -> the result, the report model. One instance's run
// is run-instance.ts. The world comes in through RunnerDeps.
import { calledAt } from '../api/called-at.ts';
import type { EngineClient } from '../api/index.ts';
import type { Pipeline, Step } from '../pipeline/model.ts';
import { Masker } from './masker.ts';
import { checkSelection, EVERY_INSTANCE, inRollout, matrixValues } from '../pipeline/selection.ts';
import { instanceIdentity } from './planned.ts';
import { instanceSet, type InstanceSet } from './instance-set.ts';
import { identityOf, newInstance } from './instance.ts';
import { runOutcome, type RunResult, type StepRun } from './result.ts';
import { runRollout } from './rollout.ts';
import { settle } from './step-state.ts';
import { stepPosition, type RunContext, type RunnerDeps, type RunOptions } from './run-context.ts';
import { FAIL_FAST, leaveUnstarted, notStarted } from './instance-end.ts';
import { runInstance } from './run-instance.ts';
import { told } from './listener.ts';
import { prepareRun, type ResolvedServer } from './scope.ts';
import { calledServers } from './called-servers.ts';

export type { RunnerDeps, RunOptions } from './run-context.ts';

/**
 * A client for every server a step calls, opened up front: a configuration the client refuses
 * (credentials over plain http://) stops the run before its first call.
 */
async function openClients(
  pipeline: Pipeline,
  servers: Map<string, ResolvedServer>,
  base: Record<string, unknown>,
  deps: RunnerDeps,
  instances: InstanceSet,
): Promise<Map<string, EngineClient>> {
  const clients = new Map<string, EngineClient>();
  try {
    for (const server of calledServers(pipeline, servers, base, instances))
      clients.set(server.name, deps.clientFor(server));
  } catch (error) {
    await Promise.all([...clients.values()].map((c) => c.close()));
    throw error;
  }
  return clients;
}

/** The instances of a step: one, or one per matrix combination the selection keeps. */
function instancesOf(ctx: RunContext, step: Step, options: RunOptions, set: InstanceSet): StepRun[] {
  const contexts = { ...ctx.base, steps: ctx.steps, targets: ctx.targets };
  return set.steps[step.index]!.map(({ combination, key }) =>
    newInstance(
      instanceIdentity(step, combination, key, contexts, ctx.masker),
      options.resume ? { resume: 'resumed' } : {},
    ),
  );
}

/** Runs a step's instances, at most max-parallel at a time; under fail-fast a failure stops the rest. */
async function runStep(ctx: RunContext, step: Step, instances: StepRun[]): Promise<void> {
  const position = stepPosition(ctx, step);
  const { signal } = ctx.deps;
  let next = 0;
  let stop = false;
  const worker = async () => {
    while (next < instances.length) {
      const run = instances[next++]!;
      if (signal.aborted) {
        notStarted(ctx, step, run, position, signal); // An interruption says so once for the run.
        continue;
      }
      // Fail-fast's cancellations are told as they happen (a resume runs them); one a resume carries stays as it ended.
      if (stop) {
        leaveUnstarted(ctx, step, run, position, FAIL_FAST, true);
        continue;
      }
      await runInstance(ctx, step, run, position);
      if (run.outcome === 'failure' && step.failFast && step.matrix && !step.continueOnError) stop = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(step.maxParallel, Math.max(1, instances.length)) }, worker));
  // What the journal heard of this step is on disk before the next step starts.
  await ctx.tell.settled();
}

export async function runPipeline(pipeline: Pipeline, deps: RunnerDeps, options: RunOptions = {}): Promise<RunResult> {
  checkSelection(pipeline, options.selection ?? EVERY_INSTANCE, deps.ways);
  const masker = deps.masker ?? new Masker();
  const { name, contexts: base, servers, targets } = prepareRun(pipeline, deps.env, masker);
  const set = instanceSet(pipeline, options.selection ?? EVERY_INSTANCE);
  const clients = await openClients(pipeline, servers, base, deps, set);
  const watch = deps.stopwatch ?? deps.now;
  const ctx: RunContext = {
    pipeline,
    deps,
    tell: told(deps.listeners),
    masker,
    base,
    targets,
    steps: Object.create(null) as RunContext['steps'],
    status: { failed: false, cancelled: false },
    client: (server) => {
      const client = server === undefined ? undefined : clients.get(server);
      if (!client) throw new Error(`no server ${server ?? ''} for this step`);
      return client;
    },
    watch,
    live: new Map(),
    resume: options.resume,
    selection: options.selection ?? EVERY_INSTANCE,
    park: options.park,
    windowPark: {},
  };
  const planned = () => pipeline.steps.flatMap((step) => instancesOf(ctx, step, options, set)).map(identityOf);
  // Where each server's calls go (masked first, as the masker knows the URL's spellings): no user part, no query.
  const urls = Object.fromEntries([...servers.values()].map((s) => [s.name, calledAt(masker.mask(s.url))]));
  await deps.onStart?.({ name, planned, servers: urls });
  const startedAt = watch();
  const runs: StepRun[] = [];
  const rollout = pipeline.rollout;
  // With a rollout, the steps of its key run value by value, wave by wave (rollout.ts): the other
  // steps before the first of them run before it, the rest after it.
  const split = (step: Step) => inRollout(rollout, step);
  const first = pipeline.steps.findIndex(split);
  const plain = async (steps: Step[]) => {
    for (const step of steps) {
      const instances = instancesOf(ctx, step, options, set);
      runs.push(...instances);
      await runStep(ctx, step, instances);
      settle(ctx, step, instances);
    }
  };
  let rolledOut: RunResult['rollout'];
  if (!rollout || first < 0) await plain(pipeline.steps);
  else {
    await plain(pipeline.steps.filter((s) => !split(s) && s.index < first));
    const instances = new Map(
      pipeline.steps.filter(split).map((step) => [step, instancesOf(ctx, step, options, set)] as const),
    );
    for (const list of instances.values()) runs.push(...list);
    const outcome = await runRollout(ctx, rollout, instances);
    rolledOut = outcome.result;
    runs.push(...outcome.analysis);
    for (const [step, list] of instances) settle(ctx, step, list, { status: false });
    const after = pipeline.steps.filter((s) => !split(s) && s.index > first);
    // A parked rollout goes on in a later job: the steps after it wait for it, not started.
    if (rolledOut.parked)
      for (const step of after)
        for (const run of instancesOf(ctx, step, options, set)) {
          runs.push(run);
          const message = `not started: the rollout parked at wave ${rolledOut.parked.wave}`;
          leaveUnstarted(ctx, step, run, stepPosition(ctx, step), { code: 'ROLLOUT_PARKED', message }, false);
        }
    else await plain(after);
  }
  // A write that parked the run for its window, outside a rollout: the journal's park record (a rollout writes its own).
  const parked = rolledOut?.parked ?? ctx.windowPark.park;
  if (parked && !rolledOut?.parked) ctx.tell.rolloutParked(parked);
  await Promise.all([...clients.values()].map((c) => c.close()));
  return {
    file: pipeline.file,
    name,
    // Interrupted after its last instance ended: still cancelled.
    outcome: ctx.status.cancelled ? 'cancelled' : runOutcome(runs, rolledOut),
    startedAt,
    durationMs: watch() - startedAt,
    steps: runs,
    selection: options.selection,
    matrix: matrixValues(pipeline),
    ...(rolledOut ? { rollout: rolledOut } : {}),
    ...(parked ? { parked } : {}),
  };
}
