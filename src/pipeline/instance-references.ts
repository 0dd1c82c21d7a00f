// The rule of a reference into a matrix step's instances (`steps.ID.instances`, `.failures`):
// element by element, each with its matrix, outcome and outputs.
import { STEP_TYPES } from '../steps/registry.ts';
import { didYouMean } from './diagnostics.ts';

/**
 * A reference into a matrix step's instances (`steps.ID.instances` or `.failures`): a list, read
 * element by element (`.*`, `[0]`), each with matrix, outcome and outputs. Without the `.*` a
 * property of the list is read, which is always empty: `join(steps.vfs.failures.matrix.site)`
 * would say "none failed" while one did.
 */
export function instanceProblem(
  name: string,
  field: string,
  rest: string[],
  step: { uses: string; matrix: readonly string[] | undefined },
): { message: string; hint?: string } | undefined {
  const [which, part, key] = rest;
  if (which === undefined) return undefined;
  if (which !== '*' && !/^\d+$/.test(which)) {
    return {
      message: `steps.${name}.${field}.${which}: ${field} is a list of instances: read one property of each with .*`,
      hint: `write steps.${name}.${field}.*.${rest.join('.')}`,
    };
  }
  const at = `steps.${name}.${field}.${which}`;
  if (part === undefined) return undefined;
  if (!['matrix', 'outcome', 'outputs'].includes(part))
    return { message: `${at}.${part}: an instance has matrix, outcome and outputs` };
  if (key === undefined) return undefined;
  if (part === 'outputs') {
    const outputs = STEP_TYPES.get(step.uses)?.outputs ?? [];
    if (outputs.includes(key)) return undefined;
    const guess = didYouMean(key, outputs);
    return {
      message: `${at}.outputs.${key}: ${step.uses} has no output ${key}`,
      hint: guess ? `did you mean "${guess}"?` : `its outputs: ${outputs.join(', ') || 'none'}`,
    };
  }
  if (part === 'matrix' && !step.matrix!.includes(key)) {
    const guess = didYouMean(key, step.matrix!);
    return {
      message: `${at}.matrix.${key}: the matrix of ${name} has ${step.matrix!.join(', ')}`,
      hint: guess ? `did you mean "${guess}"?` : "an instance's matrix holds its step's matrix keys",
    };
  }
  return undefined;
}
