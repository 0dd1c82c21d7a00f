// `enginectl validate FILE...`: schema and reference checks; every problem as FILE:LINE:COL.
import { describeError, EnginectlError, ExitCode, Interrupted, UsageError } from '../../errors.ts';
import { withSampleEnv } from '../../emulator/sample-env.ts';
import { parseCommandArgs } from '../args.ts';
import { chooseCi, type CliIO } from '../io.ts';
import { CI_NAMES } from '../../ci/detect.ts';
import { annotationsOf, findingsMask } from '../annotations.ts';
import { loadPipelineFile, parseVars } from '../../app/pipeline-input.ts';
import { neutralise } from '../../text/neutralise.ts';
import { PipelineInvalid } from '../../pipeline/diagnostics.ts';
import { checkEnvironment } from '../../app/check-env.ts';
import { ciMasker } from '../ci-masker.ts';

export const VALIDATE_HELP = `Usage: enginectl validate FILE... [options]

Checks pipeline files without running them: YAML, keys and types, step inputs, and that every
steps.*, vars.*, targets.*, matrix.* reference resolves. It needs no secret value and no server,
so it runs in a pull request from a fork; run and plan check the environment before the first
call. Every problem is printed as FILE:LINE:COL message.

Options:
  --var NAME=VALUE   a var the files may read (repeatable)
  --check-env        also check the environment, as run does before its first call: every
                     secrets.* and env.* is set, a server is given (ENGINE_URL or a servers:
                     block), and each server a step calls can be called (its URL, as resolved;
                     no credentials over plain http:// to another host), in run's words
  --emulator         as for run --emulator: server credentials need not be set
  --ci NAME          annotate problems in a CI system's syntax: ${CI_NAMES.join(', ')}
                     (default: detected from its environment variables)
  -h, --help         show this help

Exit codes: 0 every file is valid, 2 any is not.`;

/**
 * What `enginectl validate` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  var: { type: 'string', multiple: true },
  emulator: { type: 'boolean' },
  'check-env': { type: 'boolean' },
  ci: { type: 'string' },
} as const;

export async function validateCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('validate', args, OPTIONS);
  if (values.help) {
    io.stdout(`${VALIDATE_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length === 0)
    throw new UsageError('BAD_ARGUMENTS', 'validate: name at least one pipeline FILE', {
      hint: 'enginectl validate pipelines/*.yml',
    });
  const ci = chooseCi(io, values.ci);
  const vars = parseVars(values.var);
  const env = values.emulator ? withSampleEnv(io.env) : io.env;
  // --check-env resolves the run's values: each secret learnt is masked, and registered with the CI's masking, as run does.
  const masker = ciMasker(ci, (line) => io.stdout(`${line}\n`));
  let code: number = ExitCode.ok;
  for (const file of positionals) {
    try {
      const { pipeline } = await loadPipelineFile(
        file,
        { ...io, env },
        {
          vars,
          emulator: values.emulator,
          checkEnv: values['check-env'] === true,
        },
      );
      // What the run checks of the environment before its first call (app/check-env.ts): its errors, its words.
      if (values['check-env']) checkEnvironment(pipeline, env, masker, values.emulator === true);
      io.stdout(
        `${neutralise(file)}: valid (${pipeline.steps.length} step${pipeline.steps.length === 1 ? '' : 's'})\n`,
      );
    } catch (error) {
      // Interrupted (SIGINT, SIGTERM): the files after it are not read.
      if (!(error instanceof EnginectlError) || error instanceof Interrupted) throw error;
      // The credentials the file writes literally masked in its findings, as run-command.ts masks them.
      const findings = findingsMask(error, io, ci);
      const mask = (text: string) => masker.mask(findings ? findings(text) : text);
      for (const line of annotationsOf(error, io, ci, mask)) io.stdout(`${line}\n`);
      // The code under the file's problems, as every command prints it under its error (run-command.ts);
      // an error of the environment's as run says it, the file named where run names itself.
      const which = error instanceof PipelineInvalid ? '' : `${neutralise(file)}: `;
      io.stderr(`${which}${neutralise(describeError(error, mask))}\n  code: ${error.code}\n`);
      code = Math.max(code, error.exitCode);
    }
  }
  return code;
}
