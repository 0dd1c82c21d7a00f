// The schema stage of loading: the file against the pipeline schema, and each step's inputs
// against its type's schema, even when other parts of the file are wrong; inputs written beside
// `with:` are told as such.
import { inputSchema, STEP_TYPES } from '../steps/registry.ts';
import type { Diagnostic } from './diagnostics.ts';
import { issueDiagnostics, keysAt } from './issues.ts';
import { at } from './located.ts';
import { lenient, lenientCheck, LOADER_PARSE, PipelineFileSchema, StepSchema, type PipelineFile } from './schema.ts';
import type { YamlSource } from './yaml-doc.ts';

type RawStep = PipelineFile['steps'][number];

/** The file's problems by the schemas; `data` is the parsed file when it has none. */
export function schemaCheck(source: YamlSource, data: unknown): { problems: Diagnostic[]; data?: PipelineFile } {
  const problems: Diagnostic[] = [];
  const parsed = PipelineFileSchema.safeParse(data, LOADER_PARSE);
  if (!parsed.success)
    problems.push(
      ...misplacedInputs(source, data, issueDiagnostics(source, parsed.error.issues, [], PipelineFileSchema)),
    );
  const rawSteps = Array.isArray((data as { steps?: unknown }).steps) ? (data as { steps: unknown[] }).steps : [];
  rawSteps.forEach((raw, index) => {
    const step = raw as Partial<RawStep> | null;
    const type = step && typeof step === 'object' ? STEP_TYPES.get(String(step.uses)) : undefined;
    if (
      !type ||
      (step!.with !== undefined && (typeof step!.with !== 'object' || step!.with === null || Array.isArray(step!.with)))
    )
      return;
    const schema = inputSchema(type, lenientCheck);
    const result = schema.safeParse(step!.with ?? {}, LOADER_PARSE);
    if (!result.success)
      problems.push(
        ...issueDiagnostics(
          source,
          result.error.issues,
          ['steps', index, 'with'],
          // The keys of each input for "did you mean": lenientCheck hides them, the JSON Schema's wrap does not.
          inputSchema(type, lenient),
          `the inputs of ${type.uses}`,
        ),
      );
  });
  return parsed.success ? { problems, data: parsed.data } : { problems };
}

/**
 * Inputs written beside `with:` instead of under it (`with:` empty, then `fail-on:` at the step's
 * column): one message per input, at its line, saying to indent it; not "with is not a mapping"
 * and "unknown key".
 */
function misplacedInputs(source: YamlSource, data: unknown, problems: Diagnostic[]): Diagnostic[] {
  const steps = Array.isArray((data as { steps?: unknown }).steps) ? (data as { steps: unknown[] }).steps : [];
  let out = problems;
  steps.forEach((raw, index) => {
    const step = raw as Record<string, unknown> | null;
    const type = step && typeof step === 'object' ? STEP_TYPES.get(String(step.uses)) : undefined;
    if (!type || (step!.with !== undefined && step!.with !== null)) return;
    const inputs = keysAt(inputSchema(type, lenientCheck), []);
    const misplaced = Object.keys(step!).filter((k) => !Object.hasOwn(StepSchema.shape, k) && inputs.includes(k));
    if (misplaced.length === 0) return;
    out = out.filter(
      (d) =>
        !misplaced.some((k) => d.message.startsWith(`unknown key "${k}"`)) &&
        !d.message.startsWith(`steps[${index}].with: expected a mapping`),
    );
    for (const k of misplaced) {
      out.push(
        at(
          source,
          ['steps', index, k],
          `\`${k}\` looks like an input of \`with:\`; indent it under \`with:\``,
          `${type.uses} takes it as an input: write it two spaces deeper than \`with:\``,
          true,
        ),
      );
    }
  });
  return out;
}
