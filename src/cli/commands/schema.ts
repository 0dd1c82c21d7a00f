// `enginectl schema [--report | --inventory]`: the pipeline JSON Schema, for editors
// (yaml-language-server) and checks; with --report, the schema of the JSON report
// (docs/report-format.md); with --inventory, the schema of inventory files (include:).
import { ExitCode, UsageError } from '../../errors.ts';
import { inventoryJsonSchema, pipelineJsonSchema } from '../../pipeline/json-schema.ts';
import { reportJsonSchema } from '../../report/model.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

export const SCHEMA_HELP = `Usage: enginectl schema [--report | --inventory]

Prints the JSON Schema of pipeline files. Editors use it through a first line
  # yaml-language-server: $schema=<path or URL of schema/pipeline.schema.json>

Options:
  --report     print the JSON Schema of the run report (run --report-json) instead
  --inventory  print the JSON Schema of inventory files (include:) instead
  -h, --help   show this help

Exit codes: 0, 2 invalid arguments.`;

/**
 * What `enginectl schema` accepts (and -h, --help), as its parser reads it: the table of
 * commands in docs/pipeline-format.md is tested against it (test/cli/command-table.test.ts).
 */
export const OPTIONS = {
  report: { type: 'boolean' },
  inventory: { type: 'boolean' },
} as const;

export async function schemaCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('schema', args, OPTIONS);
  if (values.help) {
    io.stdout(`${SCHEMA_HELP}\n`);
    return ExitCode.ok;
  }
  if (positionals.length > 0)
    throw new UsageError('BAD_ARGUMENTS', `schema: takes no argument, got ${positionals.join(' ')}`, {
      hint: 'enginectl schema > pipeline.schema.json (or --report, --inventory)',
    });
  if (values.report && values.inventory)
    throw new UsageError('BAD_ARGUMENTS', 'schema: --report and --inventory do not go together: one schema at a time', {
      hint: 'enginectl schema --report, or enginectl schema --inventory',
    });
  const schema = values.report ? reportJsonSchema() : values.inventory ? inventoryJsonSchema() : pipelineJsonSchema();
  io.stdout(`${JSON.stringify(schema, null, 2)}\n`);
  return ExitCode.ok;
}
