// Loading a pipeline, in stages: read (the size guard) -> parse (YAML with positions) -> include
// (inventories merged) -> matrix values from vars (matrix-values.ts) -> schema (schema-check.ts)
// -> semantics (semantics.ts) -> normalise (normalise.ts): the runner's model, or every problem at
// once (PipelineInvalid, exit 2). No I/O.
import { PipelineInvalid, type Diagnostic } from './diagnostics.ts';
import { includeInventories } from './include.ts';
import type { Pipeline } from './model.ts';
import { normalise } from './normalise.ts';
import type { PipelineFile } from './schema.ts';
import { matrixSizeProblems, resolveMatrixVars } from './matrix-values.ts';
import { schemaCheck } from './schema-check.ts';
import { semanticProblems } from './semantics.ts';
import { serverChoice } from './servers-check.ts';
import { parseYaml } from './yaml-doc.ts';
import type { Reach } from './model.ts';
import { reachOf, readBackReach } from './reach.ts';
import { EVERY_INSTANCE, type Selection } from './selection.ts';
import type { DefaultServer } from '../api/server-env.ts';
import type { WaysOn } from '../ways-on.ts';

export { DEFAULT_SERVER } from './servers-check.ts';
export const MAX_FILE_BYTES = 1024 * 1024;

export interface LoadOptions {
  file: string;
  text: string;
  env: Readonly<Record<string, string | undefined>>;
  /** --var NAME=VALUE overrides. */
  vars?: Readonly<Record<string, unknown>>;
  /** run --emulator: every server is the embedded emulator. */
  emulator?: boolean;
  /**
   * Check what the environment must give (every secrets.X and env.X is set; a server from
   * ENGINE_URL): true by default, as run and plan need it before the first call. `validate`
   * checks a file without it, so it runs where secrets are not given (a pull request).
   */
  checkEnv?: boolean;
  /** The default server, when the edge read it otherwise than from `env` (an action's inputs). */
  defaultServer?: DefaultServer;
  /** Reads an inventory named by `include:` (the edge resolves it next to the pipeline file). */
  readInclude?: (path: string) => string;
  /**
   * The instances a run is limited to (--only, --skip); every instance when absent. Only what the
   * instances reach is asked of the environment (reach.ts): a job of one site needs that site's
   * secrets only, a pipeline using one server of an inventory that server's only.
   */
  selection?: Selection;
  /**
   * verify: only these servers are reached (those of the instances in doubt), and nothing else is
   * asked of the environment: no step's input, no target (reach.ts readBackReach).
   */
  readBack?: Iterable<string> | undefined;
  /**
   * A dry run (run --dry-run, plan, an action's dry-run: true): it sends nothing, so a secret not set
   * is no problem (the edge stands in for it, app/stand-ins.ts, named in LoadResult.unsetSecrets);
   * an env.NAME not set still is (a dry run shows its value).
   */
  dryRun?: boolean;
  /** Read plain files with the fast YAML parser (yaml-doc.ts); true by default. */
  fastYaml?: boolean;
  /** How a hint names where a var is given (the CLI's --var by default, an action's input vars). */
  ways?: WaysOn | undefined;
}

export interface LoadResult {
  pipeline: Pipeline;
  /** dryRun: the secrets the run would need and the environment does not set (a run refuses them). */
  unsetSecrets: string[];
}

function fail(file: string, message: string, hint?: string, text?: string): never {
  throw new PipelineInvalid([{ file, line: 1, col: 1, message, hint }], text);
}

/** A pipeline file over the limit: its size, when it is known (a stream's is not: it was read up to the limit). */
export function tooLarge(file: string, size: number | undefined): Diagnostic {
  const bytes = size === undefined ? `over ${MAX_FILE_BYTES}` : String(size);
  return {
    file,
    line: 1,
    col: 1,
    message: `the file is ${bytes} bytes; pipelines are limited to ${MAX_FILE_BYTES} bytes (1 MiB)`,
    hint: 'move its servers, targets, vars, windows and freezes into inventories it includes (include:, docs/pipeline-format.md), or split its steps into several pipelines',
  };
}

export function loadPipeline(options: LoadOptions): LoadResult {
  const { file } = options;
  const size = Buffer.byteLength(options.text);
  if (size > MAX_FILE_BYTES) throw new PipelineInvalid([tooLarge(file, size)], undefined);
  const text = options.text.replace(/^\uFEFF/, '');
  if (text.replace(/#.*$/gm, '').trim() === '')
    fail(file, 'the file is empty', 'a pipeline needs at least `version: 1` and `steps:`', text);

  const fast = options.fastYaml !== false;
  try {
    return loadParsed(parseYaml(file, text, { fast }), options, text, fast);
  } catch (error) {
    // A pipeline read with the fast parser (it, or an inventory) is refused only as `yaml` reads
    // it: its reading is the reference, and the positions come from it anyway (yaml-doc.ts).
    if (!fast || !(error instanceof PipelineInvalid)) throw error;
    return loadParsed(parseYaml(file, text, { fast: false }), options, text, false);
  }
}

function loadParsed(
  { source, data: own, diagnostics }: ReturnType<typeof parseYaml>,
  options: LoadOptions,
  text: string,
  fast: boolean,
): LoadResult {
  const { file } = options;
  if (diagnostics.length > 0) throw new PipelineInvalid(diagnostics, text);
  if (!own || typeof own !== 'object' || Array.isArray(own))
    fail(file, 'a pipeline file is a mapping with version: 1 and steps:', undefined, text);

  // Inventories first: what they define is checked in their own files, and merged.
  const included = includeInventories(source, own as Record<string, unknown>, options.readInclude, fast);
  // Matrix values from vars, before the schema: every later stage sees a list.
  const matrices = resolveMatrixVars(source, included.data, options.vars, options.ways);
  const data = matrices.data;
  const checked = schemaCheck(source, data);
  // An inventory not merged leaves its vars, servers and targets unknown: every later finding may
  // follow from that one cause (18 for a typo in include:), so it is told alone, with the file's shape.
  if (included.unread > 0)
    throw new PipelineInvalid(sorted([...included.problems, ...checked.problems], file), text, included.texts);
  const problems: Diagnostic[] = [...included.problems, ...matrices.problems, ...checked.problems];
  // Counted before any later stage expands a matrix.
  const sizes = matrixSizeProblems(source, data, options.ways);
  if (sizes.length > 0) throw new PipelineInvalid(sorted([...problems, ...sizes], file), text, included.texts);
  // Semantic rules: run on what parsed; when the schema failed, on the raw data as far as it fits.
  // vars come from the YAML's own data: zod's record output assigns keys one by one, which would
  // turn a `__proto__` var into the object's prototype instead of a plain key.
  const rawVars = (data as { vars?: Record<string, unknown> }).vars;
  const doc = (checked.data ? { ...checked.data, vars: rawVars } : data) as PipelineFile;
  let reach: Reach | undefined;
  // Each step's server, decided once: for what the run reaches, the rules and the pipeline.
  const servers = serverChoice(source, doc, options);
  try {
    reach = options.readBack
      ? readBackReach(doc, servers.names, options.readBack)
      : reachOf(doc, servers, options.selection ?? EVERY_INSTANCE, options);
    problems.push(...semanticProblems(source, doc, { ...options, reach }, servers, included.origins));
  } catch (error) {
    if (checked.data || !(error instanceof TypeError)) throw error;
  }
  const unset = options.dryRun ? problems.filter((p) => p.unsetSecret !== undefined) : [];
  const left = unset.length > 0 ? problems.filter((p) => p.unsetSecret === undefined) : problems;
  if (left.length > 0) throw new PipelineInvalid(sorted(left, file), text, included.texts);
  return {
    pipeline: normalise(source, doc, doc.steps.map(servers.serverOf), { ...options, reach }),
    unsetSecrets: [...new Set(unset.map((p) => p.unsetSecret!))],
  };
}

function sorted(list: Diagnostic[], file: string): Diagnostic[] {
  const seen = new Set<string>();
  return (
    list
      .filter((d) => {
        const key = `${d.file}:${d.line}:${d.col}:${d.message}`;
        return seen.has(key) ? false : (seen.add(key), true);
      })
      // The pipeline's own findings first, then each included file's, each in line order.
      .sort(
        (a, b) =>
          Number(a.file !== file) - Number(b.file !== file) ||
          a.file.localeCompare(b.file) ||
          a.line - b.line ||
          a.col - b.col,
      )
  );
}
