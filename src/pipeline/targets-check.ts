// The rules of targets: a target has a token, or a username and a password; a target a step names
// exists (also each value of a matrix its target input reads), and one written inline has credentials.
import { STEP_TYPES } from '../steps/registry.ts';
import type { TargetDef } from '../steps/types.ts';
import { didYouMean, type Diagnostic } from './diagnostics.ts';
import { at } from './located.ts';
import type { Path, YamlSource } from './yaml-doc.ts';

export function credentialProblems(source: YamlSource, path: Path, target: Partial<TargetDef>): Diagnostic[] {
  if (target.token !== undefined || (target.username !== undefined && target.password !== undefined)) return [];
  const missing = target.username !== undefined ? 'password' : target.password !== undefined ? 'username' : 'token';
  return [
    at(
      source,
      path,
      `target needs a token, or both a username and a password (missing ${missing})`,
      'the API requires targetAuthToken, or targetUserName and targetPassword',
    ),
  ];
}

/** The problems of the target one step names. */
export function stepTargetProblems(
  source: YamlSource,
  s: {
    uses: string;
    with?: Record<string, unknown> | undefined;
    matrix?: Record<string, readonly unknown[]> | undefined;
  },
  index: number,
  targets: Record<string, unknown>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const type = STEP_TYPES.get(s.uses);
  const targetInput = type?.targetInput ?? 'target';
  const target = s.with?.[targetInput];
  if (type?.targetInput && typeof target === 'string' && !target.includes('${{') && !Object.hasOwn(targets, target)) {
    const guess = didYouMean(target, Object.keys(targets));
    out.push(
      at(
        source,
        ['steps', index, 'with', targetInput],
        `unknown target "${target}"`,
        guess
          ? `did you mean "${guess}"?`
          : `targets: ${Object.keys(targets).join(', ') || 'none; define them under targets:'}`,
      ),
    );
  }
  if (target && typeof target === 'object' && !Array.isArray(target))
    out.push(...credentialProblems(source, ['steps', index, 'with', targetInput], target as Partial<TargetDef>));
  const key =
    typeof target === 'string' ? /^\$\{\{\s*matrix\.([A-Za-z_][\w-]*)\s*\}\}$/.exec(target.trim())?.[1] : undefined;
  const values = key ? s.matrix?.[key] : undefined;
  values?.forEach((value, i) => {
    if (!Object.hasOwn(targets, String(value)))
      out.push(
        at(
          source,
          ['steps', index, 'matrix', key!, i],
          `unknown target "${String(value)}" in the matrix`,
          `targets: ${Object.keys(targets).join(', ') || 'none'}`,
        ),
      );
  });
  return out;
}
