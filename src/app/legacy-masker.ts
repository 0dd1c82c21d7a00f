// The masker a run made before the file masker (runner/file-secrets.ts) hashed its journal's
// files with: the run's own, taught the secrets its selection reached (runner/scope.ts prepareRun
// of the pipeline as loaded for that selection: the servers, targets and vars its instances use).
// A resume with another --only, and verify, ask it of the selection the journal's run recorded:
// the pipeline is loaded again from the same files for that selection, asking nothing of the
// environment, to know what it reached; a secret not given here is not learnt (nor, in the text,
// was it ever written: only what the file writes literally changes its hash).
import type { Selection } from '../pipeline/selection.ts';
import { loadPipeline } from '../pipeline/load.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { Masker } from '../runner/masker.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import type { Source } from './pipeline-input.ts';

export interface LegacyInput {
  pipeline: Pipeline;
  /** The files the pipeline reads, the pipeline first: loaded again from these. */
  sources: readonly Source[];
  /** The --var values. */
  vars: Readonly<Record<string, unknown>>;
  env: Env;
}

/** A masker taught what `selection` reaches in the pipeline of `input`'s files; undefined when they cannot be loaded for it. */
export function legacyMasker(input: LegacyInput, selection: Selection): Masker | undefined {
  const [main, ...included] = input.sources;
  if (!main) return undefined;
  let pipeline: Pipeline;
  try {
    pipeline = loadPipeline({
      file: input.pipeline.file,
      text: main.text,
      env: input.env,
      vars: input.vars,
      checkEnv: false,
      selection,
      readInclude: (path) => {
        const found = included.find((s) => s.path === path);
        if (!found) throw new Error(`${path} was not read by this run`);
        return found.text;
      },
    }).pipeline;
  } catch {
    return undefined;
  }
  const masker = new Masker();
  try {
    prepareRun(pipeline, input.env, masker, 'reached');
  } catch {
    // What it learnt before a value it cannot resolve here: as the run's masker would have (journal-setup.ts teachSecrets).
  }
  return masker;
}
