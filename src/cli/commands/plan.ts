// `enginectl plan FILE`: the dry run, each call that would be made, secrets masked.
import { ExitCode, UsageError } from '../../errors.ts';
import { dryRun } from '../../app/dry-run.ts';
import { withSampleEnv } from '../../emulator/sample-env.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';
import { loadPipelineFile, parseSelection, parseVars } from '../../app/pipeline-input.ts';

export const PLAN_HELP = `Usage: enginectl plan FILE [options]

The dry run: validates the pipeline and prints each call it would make (method, path, body),
secrets masked. Makes no request. Outputs of earlier steps appear as <steps.ID.outputs.NAME>.

Options:
  --var NAME=VALUE   override a var (repeatable)
  --only KEY=VALUE   keep only the matrix instances with that value (repeatable: a key given
                     twice keeps either value)
  --skip KEY=VALUE   leave out the matrix instances with that value (repeatable)
  --emulator         plan as run --emulator would
  -h, --help         show this help

Exit codes: 0, 2 invalid input.`;

export async function planCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('plan', args, {
    var: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    skip: { type: 'string', multiple: true },
    emulator: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout(`${PLAN_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length !== 1) throw new UsageError('BAD_ARGUMENTS', `plan: expected one pipeline FILE, got ${positionals.length}`);
  const selection = parseSelection(values.only, values.skip);
  const { pipeline } = await loadPipelineFile(positionals[0]!, values.emulator ? { ...io, env: withSampleEnv(io.env) } : io, { vars: parseVars(values.var), emulator: values.emulator, selection });
  const plan = dryRun(pipeline, values.emulator ? withSampleEnv(io.env) : io.env, { selection });
  io.stdout(`plan of "${plan.name}": no request is made\n${plan.text}\n`);
  return ExitCode.ok;
}
