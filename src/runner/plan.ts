// The plan: every call the pipeline would make, resolved as far as possible before anything
// runs, secrets masked. Each instance is prepared as the run prepares it (prepare-instance.ts),
// outputs of earlier steps shown as placeholders, and its step run against a recording client
// (plan-env.ts): the calls it makes are the plan's. plan --live reads too (live-read.ts).
import { Placeholder } from '../expr/index.ts';
import { formatDuration } from '../duration.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { STEP_TYPES } from '../steps/registry.ts';
import type { Observed } from '../steps/observed.ts';
import type { PlannedCall, StepType } from '../steps/types.ts';
import { Masker } from './masker.ts';
import { maskCalls } from './mask-model.ts';
import type { WaysOn } from '../ways-on.ts';
import { checkSelection, EVERY_INSTANCE, inRollout, type Selection } from '../pipeline/selection.ts';
import { instanceName } from './names.ts';
import { instanceSet } from './instance-set.ts';
import type { EngineClient } from '../api/index.ts';
import { readNow, type LiveState } from './live-read.ts';
import { recordCalls } from './plan-env.ts';
import { conditionOf, instanceScope, resolveInputs, type InstanceWorld } from './prepare-instance.ts';
import { prepareRun, serverName, type Env, type ResolvedServer } from './scope.ts';
import { calledServers } from './called-servers.ts';

export interface PlannedStep {
  /** The instance's key (resume.ts instanceKey): what a saved plan knows it by. */
  key: string;
  position: string;
  name: string;
  uses: string;
  server: string | undefined;
  /** The condition, when it is not the default success(). */
  condition: string | undefined;
  /** False when the condition is false even if every step before succeeds. */
  runs: boolean;
  calls: PlannedCall[];
  /** Why the calls could not be resolved fully. */
  note: string | undefined;
  /** How the step runs, when it is not the default: a gate's wait, a matrix's max-parallel and fail-fast. */
  how: string[];
  /** The live plan: what a read-only step found now, or that a write was not sent. */
  live?:
    | {
        state: LiveState | 'after-writes' | 'not-sent' | 'not-read';
        text: string;
        unprovable?: string;
        observed?: Observed;
        unreachable?: true;
      }
    | undefined;
}

/** plan --live: read-only steps run for real through read-only clients, once, without waiting. */
export interface LiveReading {
  /** A client of the server that sends GET requests only. */
  clientFor(server: ResolvedServer): EngineClient;
  now(): number;
  signal: AbortSignal;
}

export interface Plan {
  /** The pipeline's name, resolved. */
  name: string;
  steps: PlannedStep[];
}

export async function planPipeline(
  pipeline: Pipeline,
  env: Env,
  /** `ways`: how the surface names the selection in a refusal of it (the CLI's flags by default). */
  options: {
    selection?: Selection;
    masker?: Masker;
    live?: LiveReading;
    ways?: WaysOn | undefined;
    /** Hears each write of a live plan with its calls unmasked (a saved plan pins what the masks hide: app/plan-pins.ts). */
    rawWrites?: Map<string, PlannedCall[]>;
  } = {},
): Promise<Plan> {
  const selection = options.selection ?? EVERY_INSTANCE;
  checkSelection(pipeline, selection, options.ways);
  const masker = options.masker ?? new Masker();
  const { name, contexts: base, targets, servers } = prepareRun(pipeline, env, masker);
  const signal = options.live?.signal ?? new AbortController().signal;
  const clients = new Map<string, EngineClient>();
  const clientOf = (server: string | undefined): EngineClient => {
    const def = server === undefined ? undefined : servers.get(server);
    if (!def || !options.live) throw new Error(`no server ${server ?? ''} for this step`);
    let client = clients.get(def.name);
    if (!client) clients.set(def.name, (client = options.live.clientFor(def)));
    return client;
  };
  const set = instanceSet(pipeline, selection);
  try {
    // Live: a client for every server a step calls, opened up front as the run opens them
    // (run-pipeline.ts): a server the client refuses (BAD_SERVER_URL, INSECURE_HTTP) stops the plan
    // before its first request, with the run's code and words, whatever its steps read or write.
    if (options.live) for (const server of calledServers(pipeline, servers, base, set)) clientOf(server.name);
    return { name, steps: await walk() };
  } finally {
    await Promise.all([...clients.values()].map((c) => c.close()));
  }

  async function walk(): Promise<PlannedStep[]> {
    const steps: Record<
      string,
      { outcome: string; outputs: Record<string, Placeholder>; instances?: Placeholder; failures?: Placeholder }
    > = Object.create(null);
    const world: InstanceWorld = { base, steps, targets, status: { failed: false, cancelled: false }, masker };
    const liveOutputs = new Map<string, Record<string, unknown>>();
    let wrote = false;
    const out: PlannedStep[] = [];
    for (const step of pipeline.steps) {
      const type = STEP_TYPES.get(step.uses)!;
      for (const { combination: combo, key } of set.steps[step.index]!) {
        // The run's own preparation of the instance (prepare-instance.ts), earlier outputs as placeholders.
        const scope = instanceScope(world, combo);
        const condition = conditionOf(step, scope);
        const prepared = resolveInputs(step, scope, masker, { placeholders: true });
        let note = 'failure' in condition ? `resolved at run time: ${condition.failure.message}` : undefined;
        // The step's own run against a recording client: its calls, each answered by a placeholder.
        let calls: PlannedCall[] = [];
        const given = 'inputs' in prepared ? prepared.inputs : prepared.values;
        if (given) {
          const walked = await recordCalls(type, given, targets, signal);
          calls = walked.calls;
          if (!('inputs' in prepared) && JSON.stringify(given).includes('<steps.'))
            note ??= "some inputs come from earlier steps' outputs, known only at run time";
          if (walked.error) note ??= `resolved at run time: ${walked.error.message}`;
        } else if ('failure' in prepared) note ??= `resolved at run time: ${prepared.failure.message}`;
        const runs = 'runs' in condition ? condition.runs : true;
        const server = serverName(step, combo, base);
        let live: PlannedStep['live'];
        if (options.live) {
          const inputs = 'inputs' in prepared ? prepared.inputs : undefined;
          const readOnly =
            inputs !== undefined && (typeof type.readOnly === 'function' ? type.readOnly(inputs) : type.readOnly);
          if (!readOnly) {
            options.rawWrites?.set(key, calls);
            const preview =
              inputs === undefined && note
                ? { text: 'its inputs are known only at run time' }
                : await writePreview(type, calls, () => clientOf(server), options.live.signal, masker);
            live = { state: 'not-sent', ...preview, ...(type.unprovable ? { unprovable: type.unprovable } : {}) };
            wrote = true;
          } else if (!runs) live = { state: 'not-read', text: 'its condition is false' };
          else {
            const finding = await readNow(type, inputs, {
              client: () => clientOf(server),
              targets,
              masker,
              now: options.live.now,
              signal: options.live.signal,
              scope,
            });
            // A check after a write checks its effect: what it finds now is no failure yet.
            live = wrote
              ? {
                  state: 'after-writes',
                  text: `${finding.state === 'holds' ? 'holds already' : 'not yet'}: ${finding.text}`,
                }
              : {
                  state: finding.state,
                  text: finding.text,
                  ...(finding.observed ? { observed: finding.observed } : {}),
                  ...(finding.unreachable ? { unreachable: true as const } : {}),
                };
            // Later steps read what it found: real values, not placeholders.
            if (step.id !== undefined && !step.matrix && finding.state !== 'would-wait')
              liveOutputs.set(step.id, finding.outputs);
          }
        }
        out.push({
          key,
          position: `[${step.index + 1}/${pipeline.steps.length}]`,
          name: instanceName(step, combo, { ...base, steps, targets }, masker),
          uses: step.uses,
          server,
          condition: step.if.source === 'success()' ? undefined : step.if.source,
          runs,
          calls: maskCalls(masker, calls),
          note: note && masker.mask(note),
          how: howItRuns(step, prepared.values, inRollout(pipeline.rollout, step) ? pipeline.rollout!.over : undefined),
          ...(live ? { live } : {}),
        });
      }
      if (step.id !== undefined) {
        const outputs: Record<string, Placeholder> = {};
        for (const name of type.outputs) outputs[name] = new Placeholder(`steps.${step.id}.outputs.${name}`);
        steps[step.id] = {
          outcome: 'success',
          outputs: step.matrix
            ? {}
            : ((liveOutputs.get(step.id) as Record<string, Placeholder> | undefined) ?? outputs),
          ...(step.matrix
            ? {
                instances: new Placeholder(`steps.${step.id}.instances`),
                failures: new Placeholder(`steps.${step.id}.failures`),
              }
            : {}),
        };
      }
    }
    return out;
  }
}

/** What a write the live plan does not send would change, read now with GET requests (its verifier's preview). */
async function writePreview(
  type: StepType,
  calls: PlannedCall[],
  client: () => EngineClient,
  signal: AbortSignal,
  masker: Masker,
): Promise<{ text: string; observed?: Observed }> {
  const write = calls.find((c) => c.method !== 'GET');
  if (!write || !type.verify?.preview)
    return {
      text: type.uses === 'update/vfs' ? "a write; the target's vfs files cannot be read through the API" : 'a write',
    };
  try {
    const preview = await type.verify.preview(client(), write, signal, (value) => masker.maskValue(value));
    return {
      text: masker.mask(`a write; ${preview.text}`),
      ...(preview.observed ? { observed: masker.maskValue(preview.observed) } : {}),
    };
  } catch (error) {
    return { text: masker.mask(`a write; its target could not be read: ${(error as Error).message}`) };
  }
}

/** A gate's wait, a matrix's max-parallel and fail-fast, a timeout and retry: shown by plan. */
/** `rolloutKey`: the key of the rollout that splits the step, when one does. */
function howItRuns(step: Pipeline['steps'][number], inputs: unknown, rolloutKey: string | undefined): string[] {
  const how: string[] = [];
  const wait = (inputs as { wait?: { timeout?: unknown; interval?: unknown } } | null)?.wait;
  if (wait && typeof wait === 'object')
    how.push(`wait: up to ${String(wait.timeout)}, a check every ${String(wait.interval ?? '2m')}`);
  // A step of the rollout runs value by value, as its waves say (the waves are shown above the steps).
  if (rolloutKey !== undefined) how.push(`rollout: ${rolloutKey} by ${rolloutKey}, in its waves`);
  else if (step.matrix) how.push(`matrix: max-parallel ${step.maxParallel}, fail-fast ${step.failFast}`);
  if (step.timeoutMs !== undefined) how.push(`timeout: ${formatDuration(step.timeoutMs)}`);
  if (step.retry)
    how.push(
      `retry: ${step.retry.attempts} attempts, ${formatDuration(step.retry.delayMs)} apart (x${step.retry.backoff})`,
    );
  if (step.continueOnError) how.push('continue-on-error: a failure does not stop the pipeline');
  return how;
}
