// `enginectl schema`: the pipeline JSON Schema, for editors (yaml-language-server) and checks.
import { ExitCode } from '../../errors.ts';
import { pipelineJsonSchema } from '../../pipeline/schema.ts';
import { parseCommandArgs } from '../args.ts';
import type { CliIO } from '../io.ts';

export const SCHEMA_HELP = `Usage: enginectl schema

Prints the JSON Schema of pipeline files. Editors use it through a first line
  # yaml-language-server: $schema=<path or URL of schema/pipeline.schema.json>`;

export async function schemaCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('schema', args, {});
  if (values.help) {
    io.stdout(`${SCHEMA_HELP}\n`);
    return ExitCode.ok;
  }
  io.stdout(`${JSON.stringify(pipelineJsonSchema(), null, 2)}\n`);
  return ExitCode.ok;
}
