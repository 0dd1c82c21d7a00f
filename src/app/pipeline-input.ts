// A pipeline file read and loaded for a run (a directory, an unreadable or oversized file are
// told apart), and the --var and --only values of the CLI and the root action.
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import type { Selection } from '../pipeline/selection.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { parse as parseYamlValue } from 'yaml';
import { interruptedRead, UsageError } from '../errors.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import { loadPipeline, MAX_FILE_BYTES, tooLarge, type LoadResult } from '../pipeline/load.ts';
import { readTextFile, TooLarge, type ReadTextOptions } from '../read-text-file.ts';
import { undecodedNameHint } from '../file-name.ts';
import { includeRoot, readIncludeFile } from './include-file.ts';
import { canonical } from '../journal/hashing.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

export interface FileSource {
  /**
   * The file's text. With a limit, a reader that can tell (the process edge's, read-text-file.ts,
   * the one used when none is given) reads no further than it and refuses a longer file
   * (TooLarge); the loader checks the size of what it is given in any case.
   */
  readFile?(path: string, options?: ReadTextOptions): Promise<string>;
  /** Aborted on SIGINT or SIGTERM: a read it stops is told as an interruption (exit 130/143), not a bad file. */
  signal?: AbortSignal;
}

export async function readPipelineText(file: string, io: FileSource): Promise<string> {
  let text: string;
  try {
    const options = { limit: MAX_FILE_BYTES, signal: io.signal };
    text = await (io.readFile ? io.readFile(file, options) : readTextFile(file, options));
  } catch (error) {
    const interrupted = interruptedRead(io.signal, `${file}: reading the pipeline`);
    if (interrupted) throw interrupted;
    if (error instanceof TooLarge) throw new PipelineInvalid([tooLarge(file, error.size)], undefined);
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
    throw new PipelineInvalid(
      [
        {
          file,
          line: 1,
          col: 1,
          message: `cannot read the pipeline: ${why}`,
          hint: code === 'EISDIR' ? 'name a .yml file in it' : undecodedNameHint(file, error),
        },
      ],
      undefined,
    );
  }
  if (text.includes('\uFFFD')) {
    throw new PipelineInvalid(
      [{ file, line: 1, col: 1, message: 'the file is not valid UTF-8', hint: 'save it as UTF-8' }],
      undefined,
    );
  }
  return text;
}

/** A file the pipeline reads: the pipeline itself, then each include, as named. */
export interface Source {
  path: string;
  text: string;
}

/**
 * What identifies a pipeline across jobs and machines: the SHA-256 of its files (the pipeline, then
 * each include, by the names it gives them), wherever they are checked out, and of the --var
 * values it was run with (another fleet, other files: another pipeline). Reports of one pipeline
 * share it, so `report --merge` refuses the reports of another. Plain, not keyed as the journal's
 * hashes are, so it compares across jobs: the files and values are hashed with every secret they
 * write literally masked (`mask`), and a single-step action's inputs are never hashed this way.
 * Without --var values, the hash is the files' alone.
 */
export function pipelineSha256(
  sources: readonly Source[],
  mask: (text: string) => string,
  vars: Readonly<Record<string, unknown>> = {},
): string {
  const files = sources.map((s) => [s.path, mask(s.text)]);
  const hashed = Object.keys(vars).length === 0 ? files : [...files, ['--var', mask(canonical(vars))]];
  return `sha256:${createHash('sha256').update(JSON.stringify(hashed)).digest('hex')}`;
}

/**
 * Reads the inventories a pipeline includes, next to it in `dir` and inside its repository
 * (include-file.ts), and keeps each one's text in `sources` (after the pipeline's own): what
 * identifies the run in a journal.
 */
export function includeReader(dir: string, sources: Source[]): (path: string) => string {
  let root: string | undefined;
  // Each path read once: the loader may read the pipeline twice (its fast parser, then `yaml`),
  // and both readings see the same text, listed once.
  const read = new Map<string, string>();
  return (path) => {
    const known = read.get(path);
    if (known !== undefined) return known;
    // Found at the first include, once: a pipeline without includes never looks.
    root ??= includeRoot(dir);
    const included = readIncludeFile(root, dir, path);
    read.set(path, included);
    sources.push({ path, text: included });
    return included;
  };
}

/** The pipeline loaded, with the text of every file it read (their hashes identify the run in a journal). */
export async function loadPipelineFile(
  file: string,
  io: FileSource & {
    env: Readonly<Record<string, string | undefined>>;
    /** Told the pipeline once it loaded (the CLI masks an error it ends with by the secrets of each pipeline it loaded). */
    pipelineLoaded?(pipeline: Pipeline, env: Readonly<Record<string, string | undefined>>): void;
  },
  options: {
    vars?: Record<string, unknown>;
    emulator?: boolean;
    checkEnv?: boolean;
    selection?: Selection;
    readBack?: Iterable<string>;
    dryRun?: boolean;
  } = {},
): Promise<LoadResult & { text: string; sources: Source[] }> {
  const text = await readPipelineText(file, io);
  const sources: Source[] = [{ path: basename(file), text }];
  const readInclude = includeReader(dirname(file), sources);
  const loaded = loadPipeline({
    file,
    text,
    env: io.env,
    vars: options.vars,
    emulator: options.emulator,
    checkEnv: options.checkEnv,
    selection: options.selection,
    readBack: options.readBack,
    dryRun: options.dryRun,
    readInclude,
  });
  io.pipelineLoaded?.(loaded.pipeline, io.env);
  return { ...loaded, text, sources };
}

/**
 * --var NAME=VALUE: the value is read as YAML (3 is a number, [1, 2] a list), else a string. The
 * value is data: a ${{ }} inside it is text, never an expression.
 */
export function parseVars(specs: readonly string[] = [], ways: WaysOn = CLI_WAYS): Record<string, unknown> {
  const vars: Record<string, unknown> = Object.create(null);
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    if (eq <= 0)
      throw new UsageError('BAD_VAR', `${ways.given('var')} ${spec}: expected NAME=VALUE`, {
        hint: `e.g. ${ways.example('var', 'files=[1001,1002]', 'release=2026.11')}`,
      });
    const raw = spec.slice(eq + 1);
    let value: unknown;
    try {
      value = raw === '' ? '' : parseYamlValue(raw);
    } catch {
      value = raw;
    }
    Object.defineProperty(vars, spec.slice(0, eq), { value, enumerable: true, writable: true });
  }
  return vars;
}

/** --only KEY=VALUE and --skip KEY=VALUE (each repeatable; a key given twice keeps either value). */
export function parseSelection(
  onlySpecs: readonly string[] = [],
  skipSpecs: readonly string[] = [],
  ways: WaysOn = CLI_WAYS,
): Selection {
  const parse = (kind: 'only' | 'skip', specs: readonly string[]) => {
    // No prototype: a key named as every object's own (constructor, __proto__) is a key like any, refused later as naming no matrix key.
    const out = Object.create(null) as Record<string, string[]>;
    for (const spec of specs) {
      const eq = spec.indexOf('=');
      if (eq <= 0)
        throw new UsageError('BAD_ONLY', `${ways.given(kind)} ${spec}: expected KEY=VALUE`, {
          hint: `e.g. ${ways.example(kind, 'site=prod')}`,
        });
      const values = (out[spec.slice(0, eq)] ??= []);
      if (!values.includes(spec.slice(eq + 1))) values.push(spec.slice(eq + 1));
    }
    return out;
  };
  return { only: parse('only', onlySpecs), skip: parse('skip', skipSpecs) };
}
