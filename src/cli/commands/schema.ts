// `enginectl schema [--report]`: the pipeline JSON Schema, for editors (yaml-language-server) and
// checks; with --report, the schema of the JSON report (docs/report-format.md).
import { ExitCode } from '../../errors.ts';
import { pipelineJsonSchema } from '../../pipeline/schema.ts';
import { reportJsonSchema } from '../../report/model.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

export const SCHEMA_HELP = `Usage: enginectl schema [--report]

Prints the JSON Schema of pipeline files. Editors use it through a first line
  # yaml-language-server: $schema=<path or URL of schema/pipeline.schema.json>

Options:
  --report     print the JSON Schema of the run report (run --report-json) instead`;

export async function schemaCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('schema', args, { report: { type: 'boolean' } });
  if (values.help) {
    io.stdout(`${SCHEMA_HELP}\n`);
    return ExitCode.ok;
  }
  io.stdout(`${JSON.stringify(values.report ? reportJsonSchema() : pipelineJsonSchema(), null, 2)}\n`);
  return ExitCode.ok;
}
