// The rule of an input that is exactly `${{ vars.NAME }}` of a var the file or --var fixes: the
// var's value is checked now against the input's type, located at the var.
import type { z } from 'zod';
import { inputSchema, STEP_TYPES } from '../steps/registry.ts';
import { resolved } from '../steps/types.ts';
import type { Diagnostic } from './diagnostics.ts';
import { issueDiagnostics } from './issues.ts';
import { at } from './located.ts';
import { LOADER_PARSE } from './schema.ts';
import type { YamlSource } from './yaml-doc.ts';
import { CLI_WAYS, type WaysOn } from '../ways-on.ts';

/**
 * An input that is exactly `${{ vars.NAME }}` of a var the file (or --var) fixes: its value is
 * checked now, against the input's type, and located at the var, not at run time.
 */
export function varInputProblems(
  source: YamlSource,
  step: { uses: string; with?: Record<string, unknown> | undefined },
  index: number,
  fileVars: Record<string, unknown>,
  flagVars: Readonly<Record<string, unknown>> | undefined,
  /** Where the surface takes vars, as a value given there is named: `--var`, the action's input vars. */
  ways: WaysOn = CLI_WAYS,
): Diagnostic[] {
  const type = STEP_TYPES.get(step.uses);
  const fromVars = Object.entries(step.with ?? {}).flatMap(([input, raw]) => {
    const name = typeof raw === 'string' ? /^\s*\$\{\{\s*vars\.([A-Za-z_][\w-]*)\s*\}\}\s*$/.exec(raw)?.[1] : undefined;
    return name ? [[input, name] as const] : [];
  });
  // The step type's schema is built only for a step that has such an input.
  if (!type || fromVars.length === 0) return [];
  const shape = (inputSchema(type, resolved) as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return [];
  const out: Diagnostic[] = [];
  for (const [input, name] of fromVars) {
    if (!shape[input]) continue;
    const fromFlag = Object.hasOwn(flagVars ?? {}, name);
    const value = fromFlag ? flagVars![name] : Object.hasOwn(fileVars, name) ? fileVars[name] : undefined;
    if (value === undefined || JSON.stringify(value).includes('${{')) continue;
    const parsed = shape[input]!.safeParse(value, LOADER_PARSE);
    if (parsed.success) continue;
    const where = `vars.${name} is ${input} of step ${index + 1} (${step.uses})`;
    if (fromFlag) {
      out.push(
        at(
          source,
          ['steps', index, 'with', input],
          `${where}, given by ${ways.given('var')}: ${parsed.error.issues[0]?.message ?? 'not valid'}`,
        ),
      );
      continue;
    }
    for (const d of issueDiagnostics(source, parsed.error.issues, ['vars', name], shape[input]!))
      out.push({ ...d, message: `${d.message.replace(/^vars\.[\w-]+(\[\d+\])?: /, '')} (${where})` });
  }
  return out;
}
