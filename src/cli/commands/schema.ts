// `enginectl schema [--report | --inventory]`: the pipeline JSON Schema, for editors
// (yaml-language-server) and checks; with --report, the schema of the JSON report
// (docs/report-format.md); with --inventory, the schema of inventory files (include:).
import { ExitCode } from '../../errors.ts';
import { inventoryJsonSchema, pipelineJsonSchema } from '../../pipeline/json-schema.ts';
import { reportJsonSchema } from '../../report/model.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

export const SCHEMA_HELP = `Usage: enginectl schema [--report | --inventory]

Prints the JSON Schema of pipeline files. Editors use it through a first line
  # yaml-language-server: $schema=<path or URL of schema/pipeline.schema.json>

Options:
  --report     print the JSON Schema of the run report (run --report-json) instead
  --inventory  print the JSON Schema of inventory files (include:) instead`;

export async function schemaCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('schema', args, { report: { type: 'boolean' }, inventory: { type: 'boolean' } });
  if (values.help) {
    io.stdout(`${SCHEMA_HELP}\n`);
    return ExitCode.ok;
  }
  const schema = values.report ? reportJsonSchema() : values.inventory ? inventoryJsonSchema() : pipelineJsonSchema();
  io.stdout(`${JSON.stringify(schema, null, 2)}\n`);
  return ExitCode.ok;
}
