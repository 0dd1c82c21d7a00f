// The pipeline a journal's calls in doubt are read back with (decide, verify): loaded again from
// the file its run named (a path from where the run started: another checkout has it elsewhere)
// or --pipeline FILE, with the --var values given again, and compared with what the run recorded
// (journal/records.ts RunRecord): the URL of each server read, the hash of the --var values, of
// each file, as a resume compares them (file-hashes.ts comparedIdentity). One that is not the
// run's reads another server than the one the call was sent to: its "not applied" would let a
// --retry send an applied write again.
import { resolve } from 'node:path';
import type { JournalState } from '../journal/read.ts';
import { serversToRead, type InDoubtInstance } from '../journal/verify.ts';
import { serverHere, serverMoved } from '../journal/sent-server.ts';
import { journalKey } from '../journal/seal.ts';
import { selectionOf } from '../journal/records.ts';
import { fileChanges } from '../pipeline/file-changes.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import type { Pipeline } from '../pipeline/model.ts';
import { fileMasker } from '../runner/file-secrets.ts';
import type { Masker } from '../runner/masker.ts';
import { prepareRun, type Env } from '../runner/scope.ts';
import { UsageError } from '../errors.ts';
import { shellWord } from '../text/shell-word.ts';
import { comparedIdentity, filesHashes, varsHashOf } from './file-hashes.ts';
import { legacyMasker } from './legacy-masker.ts';
import { loadPipelineFile, type Source } from './pipeline-input.ts';
import { compareWithRun, type FileVerdict } from './verify-file.ts';

type LoadIo = Parameters<typeof loadPipelineFile>[1] & { cwd: string };

/**
 * The pipeline `given` (--pipeline FILE), else the file the journal's last run named, loaded to
 * read back `readBack` (only their servers asked of the environment). The run's file not found
 * here says where to decide from, or what to give.
 */
export async function loadRunPipeline(
  state: JournalState,
  io: LoadIo,
  options: { given: string | undefined; vars: Record<string, unknown>; readBack: ReadonlySet<string> },
) {
  const named = state.runs.at(-1)!.file;
  const file = resolve(io.cwd, options.given ?? named);
  try {
    return await loadPipelineFile(file, io, {
      vars: options.vars,
      readBack: options.readBack,
      checkEnv: options.readBack.size > 0,
    });
  } catch (error) {
    if (options.given !== undefined || !(error instanceof PipelineInvalid)) throw error;
    const hint = `the run named ${named}${named === file ? '' : ` (a path from the directory it started in: ${file} here)`}: give --pipeline FILE (the file the run ran), or run this from the run's checkout`;
    const diagnostics = error.diagnostics.map((d) =>
      d.file === file && d.message.startsWith('cannot read the pipeline') ? { ...d, hint: d.hint ?? hint } : d,
    );
    throw new PipelineInvalid(diagnostics, error.source, error.others);
  }
}

export interface RunPipelineInput {
  pipeline: Pipeline;
  sources: readonly Source[];
  /** The --var values given here. */
  vars: Readonly<Record<string, unknown>>;
  env: Env;
  /** Taught the pipeline's secrets (journal-setup.ts teachSecrets): the run recorded its URLs so masked. */
  masker: Masker;
}

export interface AgainstRun {
  /** Each server read whose URL is not the one the run that sent its call recorded, in words. */
  servers: string[];
  /** The --var values and the files, where they are not the run's, in words. */
  inputs: string[];
  /** Whether the pipeline file is the run's (verify may not be given the secrets to tell). */
  file: FileVerdict;
  /** The --var values the journal's last run was given (masked), as words of a command line. */
  runVars: string[];
}

/**
 * How `input` differs from what the journal's runs recorded, to read back `instances`: each server
 * at the URL the run that sent its call recorded, the --var values and files as its last run's.
 */
export function againstRun(
  state: JournalState,
  input: RunPipelineInput,
  instances: readonly InDoubtInstance[],
): AgainstRun {
  const { pipeline, sources, vars, env, masker } = input;
  const read = serversToRead(instances);
  const { servers: now } = prepareRun(pipeline, env, masker);
  const moved = new Set<string>();
  for (const instance of instances) {
    const server = instance.server === undefined || !read.has(instance.server) ? undefined : now.get(instance.server);
    // Only a server proven elsewhere is another run's pipeline: one whose secret place cannot be told is cannot-tell (app/verify.ts).
    const found =
      server &&
      serverMoved(
        state,
        instance.key,
        serverHere(server, (t) => masker.mask(t)),
        journalKey(env),
      );
    if (found && !found.untold) moved.add(found.words);
  }
  const servers = [...moved];
  const { salt, v: version } = state.runs[0]!;
  const last = state.runs.at(-1)!;
  const hashing = fileMasker(pipeline, env);
  const hashed = {
    files: filesHashes(sources, salt, hashing, version),
    varsHash: varsHashOf(salt, vars, hashing, masker),
  };
  const legacy = () => legacyMasker({ pipeline, sources, vars, env }, selectionOf(last));
  const compared = comparedIdentity(last, hashed, [() => masker, legacy], { sources, vars, salt, version });
  // The pipeline file as verify compares it (it may not be given every secret the run masked in it); its includes as a resume does.
  const file = compareWithRun(pipeline, sources, state, env, vars);
  const [main, ...included] = compared.files;
  const includes = main ? fileChanges(last.files, [{ ...main, hash: last.files[0]?.hash ?? '' }, ...included]) : [];
  const runVars = Object.entries(last.vars).map(
    ([name, value]) => `--var ${shellWord(`${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)}`,
  );
  const inputs = [
    ...(compared.varsHash === last.varsHash
      ? []
      : [`the --var values differ from the run's (${runVars.length ? runVars.join(' ') : 'it was given none'})`]),
    ...(!file.same && file.changed ? [`the pipeline file changed (${pipeline.file}; the run named ${last.file})`] : []),
    ...includes,
  ];
  return { servers, inputs, file, runVars };
}

/**
 * Refuses (PIPELINE_NOT_THE_RUNS, exit 2) a pipeline whose servers read, --var values or files
 * are not the run's: a call's fate is not read from another server. Refused only when a server
 * read is elsewhere; what else differs is then said with it (alone, it is the caller's warning).
 */
export function refuseAnotherPipeline(label: string, against: AgainstRun, how: { named: string; after: string }): void {
  if (against.servers.length === 0) return;
  const differs = [...against.servers, ...against.inputs];
  const varsDiffer = against.inputs.some((i) => i.startsWith('the --var values'));
  const filesDiffer = against.inputs.some((i) => !i.startsWith('the --var values'));
  const what = [
    ...(varsDiffer
      ? [`give the --var values the run was given (${against.runVars.length ? against.runVars.join(' ') : 'none'})`]
      : []),
    ...(filesDiffer
      ? [
          `give the run's file as it was when the run started (it named ${how.named}): --pipeline FILE, or run this from the run's checkout`,
        ]
      : []),
    ...(varsDiffer || filesDiffer ? [] : ["set what the servers' URLs read from the environment as the run had it"]),
  ];
  throw new UsageError(
    'PIPELINE_NOT_THE_RUNS',
    `${label}: its calls in doubt are not read back with this pipeline: it is not the one the run ran: ${differs.join('; ')}`,
    { hint: `verify reads the servers the run sent its calls to: ${what.join('; ')}. ${how.after}` },
  );
}
