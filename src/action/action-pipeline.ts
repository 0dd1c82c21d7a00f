// What an action runs, loaded from its inputs: the root action's pipeline file (read as the CLI
// reads it, with vars, only and skip), or a single-step action's step built from its inputs. A dry
// run (dry-run: true) sends nothing: what it needs and is not given stands in (app/stand-ins.ts).
import { basename, dirname, resolve } from 'node:path';
import { includeReader, parseSelection, parseVars, readPipelineText, type Source } from '../app/pipeline-input.ts';
import { withStandIns } from '../app/stand-ins.ts';
import { UsageError } from '../errors.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import { loadPipeline } from '../pipeline/load.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { EVERY_INSTANCE, type Selection } from '../pipeline/selection.ts';
import type { Env } from '../runner/scope.ts';
import type { ActionDef } from './definitions.ts';
import { varsLines } from './inputs.ts';
import { actionServer, dryRunInputs, stepPipeline } from './step-pipeline.ts';
import type { ActionDeps } from './store-inputs.ts';
import { ACTION_WAYS } from './ways-on.ts';

export interface Loaded {
  pipeline: Pipeline;
  /** What identifies the run in its journal: the files it read (or the inputs). */
  sources: Source[];
  vars: Record<string, unknown>;
  env: Env;
  selection: Selection;
  /** The pipeline's files, whose hash the reports carry; none for a single-step action (its inputs hold credentials). */
  files?: Source[] | undefined;
  /** A dry run: the secrets (secrets.NAME) or credential inputs (input NAME) not set, stood in for (app/stand-ins.ts). */
  stoodIn?: string[];
}

/** The pipeline, or the single step; `dryRun` (dry-run: true): what it needs and is not given stands in. */
export async function loadAction(def: ActionDef, deps: ActionDeps, dryRun: boolean): Promise<Loaded> {
  const env = deps.env;
  const server = actionServer(deps.kit.getInput, env);
  if (def.uses) {
    const { get, stoodIn } = dryRun ? dryRunInputs(def, deps.kit.getInput) : { get: deps.kit.getInput, stoodIn: [] };
    const pipeline = stepPipeline(def, get, server);
    return {
      stoodIn,
      pipeline,
      sources: [{ path: `inputs of ${def.id}`, text: JSON.stringify(pipeline.steps[0]!.with) }],
      vars: {},
      env,
      selection: EVERY_INSTANCE,
    };
  }
  const get = deps.kit.getInput;
  const file = get('pipeline').trim();
  if (!file)
    throw new UsageError('BAD_INPUT', 'input pipeline is required', {
      hint: 'with: { pipeline: pipelines/multi-target-release.yml }',
    });
  // Read as the CLI reads it (read-text-file.ts): never past 1 MiB, stopped by the first signal.
  const text = await readPipelineText(resolve(deps.cwd, file), { signal: deps.signal }).catch((error: unknown) => {
    const located = error instanceof PipelineInvalid && error.diagnostics.map((d) => ({ ...d, file }));
    throw located ? new PipelineInvalid(located, undefined) : error;
  });
  const vars = parseVars(varsLines(get), ACTION_WAYS);
  const selection = parseSelection(varsLines(get, 'only'), varsLines(get, 'skip'), ACTION_WAYS);
  const sources: Source[] = [{ path: basename(file), text }];
  const { pipeline, unsetSecrets } = loadPipeline({
    file,
    text,
    env,
    defaultServer: server,
    vars,
    selection,
    dryRun,
    readInclude: includeReader(resolve(deps.cwd, dirname(file)), sources),
    ways: ACTION_WAYS,
  });
  const stoodIn = unsetSecrets.map((name) => `secrets.${name}`);
  return { pipeline, sources, vars, env: withStandIns(env, unsetSecrets), selection, files: sources, stoodIn };
}
