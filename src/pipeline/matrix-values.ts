// A matrix key may take its values from a var (`matrix: { site: ${{ vars.sites }} }`): the list is
// written once, in the pipeline or in an inventory it includes, or given with --var. It is
// resolved at load, before the schema, so every later stage, `enginectl matrix`, the journal and
// the reports see a plain list, and no server or secret is needed to know the instances.
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { at } from './located.ts';
import type { YamlSource } from './yaml-doc.ts';

const WHOLE_VAR = /^\s*\$\{\{\s*vars\.([A-Za-z_][\w-]*)\s*\}\}\s*$/;

type Data = { steps?: unknown; vars?: unknown };

/** `data` with each matrix key given as `${{ vars.NAME }}` replaced by the var's list, and the problems. */
export function resolveMatrixVars(source: YamlSource, data: Data, vars: Readonly<Record<string, unknown>> = {}): { data: Data; problems: Diagnostic[] } {
  const problems: Diagnostic[] = [];
  if (!Array.isArray(data.steps)) return { data, problems };
  const fileVars = data.vars && typeof data.vars === 'object' ? (data.vars as Record<string, unknown>) : {};
  const steps = data.steps.map((step: unknown, index) => {
    const matrix = (step as { matrix?: unknown } | null)?.matrix;
    if (!matrix || typeof matrix !== 'object' || Array.isArray(matrix)) return step;
    let changed = false;
    const resolved: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(matrix)) {
      resolved[key] = value;
      if (typeof value !== 'string') continue;
      changed = true;
      const where = ['steps', index, 'matrix', key];
      const name = WHOLE_VAR.exec(value)?.[1];
      // A value that cannot be resolved stays as a one-value list, so it is reported once, here.
      resolved[key] = [value];
      if (!name) {
        problems.push(at(source, where, `matrix.${key}: a matrix takes a list of values, or \${{ vars.NAME }} naming a var that is one`, `e.g. ${key}: [a, b], or ${key}: \${{ vars.${key}s }}`));
        continue;
      }
      const known = Object.hasOwn(vars, name) ? vars[name] : Object.hasOwn(fileVars, name) ? fileVars[name] : undefined;
      if (known === undefined) {
        const guess = didYouMean(name, [...Object.keys(fileVars), ...Object.keys(vars)]);
        problems.push(at(source, where, `matrix.${key}: unknown var "${name}"`, guess ? `did you mean "${guess}"?` : 'define it under vars: (here or in an included inventory) or pass --var NAME=[a, b]'));
        continue;
      }
      const plain = (v: unknown) => typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && !v.includes('${{'));
      if (!Array.isArray(known) || known.length === 0 || !known.every(plain)) {
        problems.push(at(source, where, `matrix.${key}: vars.${name} is not a list of plain values`, 'a matrix var is a non-empty list of strings, numbers or booleans, known before the run (no ${{ }})'));
        continue;
      }
      resolved[key] = [...known];
    }
    return changed ? { ...(step as object), matrix: resolved } : step;
  });
  return { data: { ...data, steps }, problems };
}
