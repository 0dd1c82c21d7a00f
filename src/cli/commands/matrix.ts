// `enginectl matrix FILE [--step ID]`: a step's matrix as JSON ({"include": [...]}) for a CI
// system's own job matrix (the one every matrix step shares, without --step); each job then runs
// `enginectl run FILE --only KEY=VALUE`.
import { ExitCode, UsageError } from '../../errors.ts';
import { expandMatrix } from '../../pipeline/selection.ts';
import { withSampleEnv } from '../../emulator/sample-env.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';
import { loadPipelineFile, parseVars } from '../../app/pipeline-input.ts';
import { neutralise } from '../../text/neutralise.ts';
import { inertJson } from '../../text/inert-json.ts';
import { jobMatrixTooLong } from '../../ci/facts.ts';

export const MATRIX_HELP = `Usage: enginectl matrix FILE [--step ID]

Prints a step's matrix as JSON, {"include": [{"target": "prod"}, ...]}, for a CI system's job
matrix (GitHub: strategy.matrix: \${{ fromJSON(needs.plan.outputs.matrix) }}). Each job then
runs its instance with enginectl run FILE --only KEY=VALUE.

Options:
  --step ID          the step (default: the only step with a matrix, or the
                     matrix every step with one shares)
  --var NAME=VALUE   a var the file reads (repeatable)
  --emulator         validate as run --emulator would
  -h, --help         show this help

Exit codes: 0, 2 invalid input or no such matrix.`;

/**
 * What `enginectl matrix` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  step: { type: 'string' },
  var: { type: 'string', multiple: true },
  emulator: { type: 'boolean' },
} as const;

export async function matrixCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('matrix', args, OPTIONS);
  if (values.help) {
    io.stdout(`${MATRIX_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError('BAD_ARGUMENTS', `matrix: expected one pipeline FILE, got ${positionals.length}`);
  // It calls nothing: the secrets and servers a run needs are not asked for (checkEnv: false), so
  // a CI job can compute its job matrix before any secret is given to it.
  const { pipeline } = await loadPipelineFile(
    positionals[0]!,
    values.emulator ? { ...io, env: withSampleEnv(io.env) } : io,
    { vars: parseVars(values.var), emulator: values.emulator, checkEnv: false },
  );
  const withMatrix = pipeline.steps.filter((s) => s.matrix);
  let step;
  if (values.step !== undefined) {
    step = pipeline.steps.find((s) => s.id === values.step);
    if (!step)
      throw new UsageError('NO_SUCH_STEP', `matrix: no step with id ${values.step}`, {
        hint: `steps with a matrix: ${withMatrix.map((s) => s.id ?? `#${s.index + 1}`).join(', ') || 'none'}`,
      });
    if (!step.matrix) throw new UsageError('NO_MATRIX', `matrix: step ${values.step} has no matrix`);
  } else {
    if (withMatrix.length === 0) throw new UsageError('NO_MATRIX', `matrix: no step of ${positionals[0]} has a matrix`);
    // Steps that share one matrix (a site's steps, each over the inventory's sites) are one job matrix.
    const shared = new Set(withMatrix.map((s) => JSON.stringify(s.matrix))).size === 1;
    if (!shared)
      throw new UsageError('AMBIGUOUS_MATRIX', `matrix: ${withMatrix.length} steps have a matrix, not the same one`, {
        hint: `name one with --step: ${withMatrix.map((s) => s.id ?? `(step ${s.index + 1} has no id)`).join(', ')}`,
      });
    step = withMatrix[0]!;
  }
  const include = expandMatrix(step.matrix);
  // A value from the pipeline file (a pull request's) reaches the job matrix as written, and a log as no command.
  io.stdout(`${inertJson({ include }, 0)}\n`);
  const over = jobMatrixTooLong(include.length);
  if (over) {
    const name = step.id ?? `${step.index + 1}`;
    io.stderr(
      `enginectl: warning: step ${neutralise(name)}'s matrix is ${include.length.toLocaleString('en')} jobs; ${over}\n  hint: split the fleet across jobs: a job per wave or per part of the inventory, each with its --only\n`,
    );
  }
  return ExitCode.ok;
}
