// Executes a normalised pipeline: steps in file order, matrix instances at most max-parallel at a
// time, conditions, continue-on-error, timeouts, explicit retries, cancellation, masking. The
// world comes in through RunnerDeps; the result is the report model.
import { ApiError, type EngineClient } from '../api/index.ts';
import { formatDuration } from '../duration.ts';
import { EnginectlError, UsageError } from '../errors.ts';
import { resolveDeep, truthy, type EvalScope } from '../expr/index.ts';
import type { Pipeline, Step } from '../pipeline/model.ts';
import { inputSchema, STEP_TYPES } from '../steps/registry.ts';
import { resolved, type StepEnv, type StepOutcome } from '../steps/types.ts';
import type { RunLogger } from './logger.ts';
import { Masker } from './masker.ts';
import { checkOnly, expandMatrix, onlyFilter } from './matrix.ts';
import { instanceName } from './names.ts';
import { instanceCalls, type RunObserver } from './observer.ts';
import { instanceKey, type ResumePlan } from './resume.ts';
import type { Outcome, RunResult, StepError, StepRun } from './result.ts';
import { maskDeclared, prepareRun, registerInputSecrets, serverName, type Env, type ResolvedServer } from './scope.ts';

export interface RunnerDeps {
  clientFor(server: ResolvedServer): EngineClient;
  env: Env;
  logger: RunLogger;
  /** Aborted on SIGINT/SIGTERM: the call in flight is aborted, the rest cancelled. */
  signal: AbortSignal;
  /** The clock of waits and gates (simulated under --emulator). */
  now(): number;
  /** The clock of timestamps and durations in the result: real time (default: now). */
  stopwatch?: () => number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** How often a long step says it is still running; 60 s by default. */
  heartbeatMs?: number;
  masker?: Masker;
  /** Told the pipeline's resolved name before the first step. */
  onStart?: (name: string) => void;
  /** Hears each instance and each non-idempotent call (the journal). */
  observer?: RunObserver;
}

export interface RunOptions {
  /** `--only KEY=VALUE`: keep the matrix instances with those values. */
  only?: Readonly<Record<string, string>>;
  /** `--resume`: the instances done in an earlier run, not run again. */
  resume?: ResumePlan;
}

interface StepState {
  outcome: Outcome;
  outputs: Record<string, unknown>;
  /** A matrix step's instances: each one's matrix values, outcome and outputs (steps.ID.instances). */
  instances?: InstanceState[];
  /** Those of its instances that failed (steps.ID.failures). */
  failures?: InstanceState[];
}

interface InstanceState {
  matrix: Record<string, unknown>;
  outcome: Outcome;
  outputs: Record<string, unknown>;
}

function errorOf(error: unknown): StepError {
  if (error instanceof EnginectlError) return { code: error.code, message: error.message, hint: error.hint };
  return { code: 'STEP_ERROR', message: error instanceof Error ? error.message : String(error) };
}

/** A cancelled instance: in doubt when its last call left and got no answer. */
function cancelledError(run: StepRun): StepError {
  if (!run.inDoubt) return { code: 'CANCELLED', message: 'cancelled: the run was interrupted' };
  return {
    code: 'IN_DOUBT',
    message: `cancelled after sending ${run.inDoubt.method} ${run.inDoubt.path}: the request was sent; the server may have applied it`,
    hint: 'check on the server whether it was applied, then resume with --resume JOURNAL --in-doubt skip (it was) or --in-doubt retry (it was not)',
  };
}

export async function runPipeline(pipeline: Pipeline, deps: RunnerDeps, options: RunOptions = {}): Promise<RunResult> {
  checkOnly(pipeline, options.only ?? {});
  const masker = deps.masker ?? new Masker();
  const { name, contexts: base, servers, targets } = prepareRun(pipeline, deps.env, masker);
  deps.onStart?.(name);
  const clients = new Map<string, EngineClient>();
  const clientOf = (name: string | undefined): EngineClient => {
    const server = name === undefined ? undefined : servers.get(name);
    if (!server) throw new Error(`no server ${name ?? ''} for this step`);
    let client = clients.get(server.name);
    if (!client) clients.set(server.name, (client = deps.clientFor(server)));
    return client;
  };
  // A client for every server a step calls, up front: a configuration the client refuses
  // (credentials over plain http://) stops the run before its first call.
  try {
    for (const step of pipeline.steps) {
      if (step.server === undefined || !STEP_TYPES.get(step.uses)?.needsServer) continue;
      for (const c of expandMatrix(step.matrix).filter((x) => onlyFilter(x, options.only ?? {}))) {
        const name = serverName(step, c, base);
        if (name === undefined || !servers.has(name)) {
          throw new UsageError('UNKNOWN_SERVER', `step ${step.index + 1}: server ${String(step.server).trim()} is "${name ?? ''}", which names no server`, { hint: `servers: ${[...servers.keys()].join(', ') || 'none'}` });
        }
        clientOf(name);
      }
    }
  } catch (error) {
    await Promise.all([...clients.values()].map((c) => c.close()));
    throw error;
  }
  const log = deps.logger;
  const watch = deps.stopwatch ?? deps.now;
  const startedAt = watch();
  const steps: Record<string, StepState> = Object.create(null);
  const status = { failed: false, cancelled: false };
  const runs: StepRun[] = [];
  const total = pipeline.steps.length;

  const runInstance = async (step: Step, run: StepRun, position: string): Promise<void> => {
    const scope: EvalScope = { contexts: { ...base, steps, targets, matrix: run.matrix ?? {} }, status: { ...status } };
    let condition: boolean;
    try {
      condition = truthy(step.if.evaluate(scope));
    } catch (error) {
      return finish(run, position, 'failure', { code: 'EXPRESSION', message: `if: ${(error as Error).message}` });
    }
    if (!condition) return finish(run, position, 'skipped');
    const type = STEP_TYPES.get(step.uses)!;
    run.startedAt = watch();
    log.stepStarted(run, position);
    deps.observer?.instanceStarted(run);
    let inputs: Record<string, unknown>;
    try {
      const values = resolveDeep(step.with, scope) as Record<string, unknown>;
      registerInputSecrets(type, values, masker);
      const parsed = inputSchema(type, resolved).safeParse(values);
      if (!parsed.success) {
        const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'with'}: ${i.message}`).join('; ');
        return finish(run, position, 'failure', { code: 'INPUT_INVALID', message: masker.mask(`the inputs are not valid once resolved: ${detail}`) });
      }
      inputs = parsed.data as Record<string, unknown>;
    } catch (error) {
      return finish(run, position, 'failure', { code: 'EXPRESSION', message: masker.mask((error as Error).message) });
    }
    run.inputs = maskDeclared(masker.maskValue(inputs), type.secretInputs);
    const attempts = step.retry?.attempts ?? 1;
    const calls = instanceCalls(run, deps.observer);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      run.attempts = attempt;
      const timeout = step.timeoutMs === undefined ? undefined : AbortSignal.timeout(step.timeoutMs);
      const signal = timeout ? AbortSignal.any([deps.signal, timeout]) : deps.signal;
      const env: StepEnv = {
        client: () => clientOf(run.server),
        call: { signal, observer: calls },
        signal,
        log: { info: (m) => log.info(run, masker.mask(m)), warn: (m) => log.warn(run, masker.mask(m)) },
        now: deps.now,
        sleep: deps.sleep,
        targets,
        secret: (v) => masker.add(v),
        evaluate: (expression) => expression.evaluate(scope),
      };
      const began = deps.now();
      const heartbeat = setInterval(() => log.info(run, `still running (${formatDuration(deps.now() - began)})`), deps.heartbeatMs ?? 60_000);
      let outcome: StepOutcome | undefined;
      let error: StepError | undefined;
      let inFlight = '';
      try {
        outcome = await type.run(inputs, env);
      } catch (caught) {
        error = errorOf(caught);
        if (caught instanceof ApiError && caught.code === 'API_ABORTED') inFlight = ` waiting for ${caught.method} ${caught.path} on ${caught.origin}`;
      } finally {
        clearInterval(heartbeat);
      }
      if (deps.signal.aborted) return finish(run, position, 'cancelled', cancelledError(run));
      if (timeout?.aborted) error = { code: 'STEP_TIMEOUT', message: `timed out after ${formatDuration(step.timeoutMs!)}${inFlight}`, hint: 'raise the step\'s timeout: if the operation is expected to take longer, and check the server is responsive' };
      if (outcome) {
        steps$(run, outcome);
        for (const w of outcome.warnings ?? []) log.warn(run, masker.mask(w));
        if (!outcome.failure && !error) return finish(run, position, 'success', undefined, outcome.outputs);
        error ??= typeof outcome.failure === 'string' ? { code: 'STEP_FAILED', message: outcome.failure } : outcome.failure!;
      }
      if (attempt < attempts) {
        const delay = step.retry!.delayMs * step.retry!.backoff ** (attempt - 1);
        log.warn(run, masker.mask(`attempt ${attempt} of ${attempts} failed: ${error!.message}; retrying in ${formatDuration(delay)}`));
        try {
          await deps.sleep(delay, deps.signal);
        } catch {
          return finish(run, position, 'cancelled', { code: 'CANCELLED', message: 'cancelled: the run was interrupted' });
        }
        continue;
      }
      return finish(run, position, 'failure', { ...error!, message: masker.mask(error!.message), hint: error!.hint && masker.mask(error!.hint) }, outcome?.outputs);
    }
  };

  const steps$ = (run: StepRun, outcome: StepOutcome) => {
    const type = STEP_TYPES.get(run.uses)!;
    run.outputs = maskDeclared(masker.maskValue(outcome.outputs), type.secretOutputs);
    run.result = masker.maskValue(outcome.result ?? null);
    run.figures = outcome.figures === undefined ? undefined : masker.mask(outcome.figures);
    run.warnings = (outcome.warnings ?? []).map((w) => masker.mask(w));
  };

  const live = new Map<StepRun, Record<string, unknown>>();
  const finish = (run: StepRun, position: string, outcome: Outcome, error?: StepError, outputs?: Record<string, unknown>) => {
    run.outcome = outcome;
    run.error = error;
    run.durationMs = run.startedAt === undefined ? 0 : watch() - run.startedAt;
    const step = pipeline.steps[run.step]!;
    run.continuedOnError = outcome === 'failure' && step.continueOnError;
    if (outputs) live.set(run, outputs);
    if (outcome !== 'cancelled' || run.startedAt !== undefined) log.stepFinished(run, position);
    deps.observer?.instanceFinished(run, outputs);
  };

  /** An instance done in an earlier run: its outputs back, nothing sent. */
  const carry = (run: StepRun, position: string, outputs: Record<string, unknown>) => {
    run.resume = 'earlier-run';
    run.outputs = masker.maskValue(outputs);
    run.figures = 'done in an earlier run (journal)';
    finish(run, position, 'success', undefined, outputs);
  };

  for (const step of pipeline.steps) {
    const combos = expandMatrix(step.matrix).filter((c) => onlyFilter(c, options.only ?? {}));
    const instances: StepRun[] = combos.map((c) => ({
      key: instanceKey(step, c),
      resume: options.resume ? ('resumed' as const) : undefined,
      step: step.index,
      id: step.id,
      name: instanceName(step, c, { ...base, steps, targets }, masker),
      uses: step.uses,
      matrix: step.matrix ? c : undefined,
      server: serverName(step, c, base),
      outcome: 'cancelled',
      continuedOnError: false,
      startedAt: undefined,
      durationMs: 0,
      attempts: 0,
      inputs: {},
      outputs: {},
      figures: undefined,
      error: undefined,
      warnings: [],
      result: null,
    }));
    runs.push(...instances);
    const position = `[${step.index + 1}/${total}]`;
    let next = 0;
    let stop = false;
    const worker = async () => {
      while (next < instances.length) {
        const run = instances[next++]!;
        if (stop || deps.signal.aborted) {
          run.outcome = 'cancelled';
          run.error = deps.signal.aborted ? { code: 'CANCELLED', message: 'cancelled: the run was interrupted' } : { code: 'FAIL_FAST', message: 'not started: another instance of this matrix failed (fail-fast)' };
          continue;
        }
        const carried = options.resume?.carried.get(run.key);
        if (carried) carry(run, position, carried.outputs);
        else await runInstance(step, run, position);
        if (run.outcome === 'failure' && step.failFast && step.matrix && !step.continueOnError) stop = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(step.maxParallel, Math.max(1, instances.length)) }, worker));

    const outcomes = instances.map((r) => r.outcome);
    const aggregate: Outcome = outcomes.includes('failure') ? 'failure' : outcomes.includes('cancelled') ? 'cancelled' : outcomes.length > 0 && outcomes.every((o) => o === 'skipped') ? 'skipped' : 'success';
    if (step.id !== undefined) {
      const single = !step.matrix && instances.length === 1 ? live.get(instances[0]!) : undefined;
      const each = instances.map((r): InstanceState => ({ matrix: r.matrix ?? {}, outcome: r.outcome, outputs: live.get(r) ?? {} }));
      steps[step.id] = {
        outcome: aggregate,
        outputs: single ?? {},
        ...(step.matrix ? { instances: each, failures: each.filter((x) => x.outcome === 'failure') } : {}),
      };
    }
    if (instances.some((r) => r.outcome === 'failure' && !r.continuedOnError)) status.failed = true;
    if (deps.signal.aborted) status.cancelled = true;
  }
  await Promise.all([...clients.values()].map((c) => c.close()));
  return {
    file: pipeline.file,
    name,
    outcome: status.cancelled ? 'cancelled' : status.failed ? 'failure' : 'success',
    startedAt,
    durationMs: watch() - startedAt,
    steps: runs,
  };
}
