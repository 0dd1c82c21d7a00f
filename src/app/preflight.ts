// The preflight: a live plan of a pipeline (GET requests only) as a saved plan, and the check a run
// with --plan makes before anything runs: the saved plan against one made now.
import { UsageError } from '../errors.ts';
import type { Pipeline } from '../pipeline/model.ts';
import type { Selection } from '../pipeline/selection.ts';
import { Masker } from '../runner/masker.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import { makePlan, type LiveOptions, type PlanOutput } from './plan.ts';
import { pipelineSha256, type Source } from './pipeline-input.ts';
import { ofAnotherPipeline, savedPlan, staleness, type CurrentPlan, type SavedPlan } from './saved-plan.ts';
import { serverUrl } from '../api/server-url.ts';

export interface PreflightInput {
  pipeline: Pipeline;
  sources: readonly Source[];
  vars: Readonly<Record<string, unknown>>;
  selection: Selection;
  env: Env;
}

export async function preflight(
  input: PreflightInput,
  live: LiveOptions,
  now: number,
): Promise<{ plan: PlanOutput; saved: CurrentPlan }> {
  const masker = new Masker();
  const plan = await makePlan(input.pipeline, input.env, { selection: input.selection, masker, live });
  const mask = (t: string) => masker.mask(t);
  const identity = {
    name: plan.name,
    file: input.pipeline.file,
    sha256: pipelineSha256(input.sources, mask),
    files: input.sources.map((s) => ({ path: s.path, sha256: pipelineSha256([s], mask) })),
    vars: masker.maskValue({ ...input.vars }),
    selection: input.selection,
    servers: calledServers(input, plan, masker, live.emulatorUrl),
  };
  return { plan, saved: savedPlan(identity, plan.steps, now) };
}

/**
 * The server each planned instance calls, by its name in the pipeline: its URL without the
 * credentials it may hold, masked (a run against another server is refused), or the embedded
 * emulator's (--emulator).
 */
function calledServers(
  input: PreflightInput,
  plan: PlanOutput,
  masker: Masker,
  emulatorUrl: string | undefined,
): Record<string, string> {
  const { servers } = prepareRun(input.pipeline, input.env, masker);
  const out: Record<string, string> = {};
  for (const name of new Set(plan.steps.flatMap((s) => (s.server === undefined ? [] : [s.server])))) {
    const server = servers.get(name);
    if (!server) continue;
    out[name] = emulatorUrl
      ? 'the embedded emulator (--emulator)'
      : masker.mask(serverUrl({ url: server.url }, `server ${name}`).url);
  }
  return out;
}

/** Refuses the run (PLAN_STALE, exit 2) when the state moved since `saved` was made, naming each difference; a plan of another pipeline (BAD_PLAN) in one line. */
export async function checkPlan(
  saved: SavedPlan,
  path: string,
  input: PreflightInput,
  live: LiveOptions,
  now: number,
): Promise<void> {
  const { saved: fresh } = await preflight(input, live, now);
  if (ofAnotherPipeline(saved, fresh)) {
    const { name, file } = saved.pipeline;
    throw new UsageError(
      'BAD_PLAN',
      `--plan ${path}: the saved plan of another pipeline ("${name}", ${file}), not of "${fresh.pipeline.name}" (${fresh.pipeline.file})`,
      {
        hint: 'make a plan of this pipeline (enginectl plan FILE --live --out F) and run with it',
      },
    );
  }
  const moved = staleness(saved, fresh);
  if (moved.length === 0) return;
  throw new UsageError(
    'PLAN_STALE',
    `--plan ${path}: the saved plan of ${saved.createdAt} is stale:\n${moved.map((m) => `  - ${m}`).join('\n')}`,
    {
      hint: 'review what moved, then make the plan again (enginectl plan FILE --live --out F) and run with it',
    },
  );
}
