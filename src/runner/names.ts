// The name of a step instance: a name with expressions is resolved for the instance (its matrix
// values in scope); otherwise the matrix combination is appended.
import { Template, toText } from '../expr/index.ts';
import type { Step } from '../pipeline/model.ts';
import type { Masker } from './masker.ts';
import { describeCombination, type Combination } from '../pipeline/selection.ts';

export function instanceName(
  step: Step,
  combination: Combination,
  contexts: Record<string, unknown>,
  masker: Masker,
): string {
  if (!(step.name instanceof Template)) return `${step.name}${step.matrix ? describeCombination(combination) : ''}`;
  try {
    return masker.mask(toText(step.name.resolve({ contexts: { ...contexts, matrix: combination } })));
  } catch {
    return masker.mask(step.name.source);
  }
}
