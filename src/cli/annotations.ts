// An invalid pipeline's findings as the CI system's annotations (GitHub's ::error file=..., Azure's
// logissue), each on its file from the workspace root, its line and column: printed by every
// command that loads a pipeline, besides the FILE:LINE:COL lines on stderr.
import { isAbsolute, relative, resolve } from 'node:path';
import { workspaceOf } from '../ci/facts.ts';
import type { CiSystem } from '../ci/system.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import type { CliIO } from './io.ts';
import { learnInvalidFileSecrets } from '../runner/file-secrets.ts';
import { ciMasker } from './ci-masker.ts';

/** `ci`: the system the command chose (--ci, or detected); `mask`: the secrets each message may hold masked. */
export function annotationsOf(
  error: unknown,
  io: Pick<CliIO, 'env' | 'cwd'>,
  ci: CiSystem,
  mask: (text: string) => string = (text) => text,
): string[] {
  if (!(error instanceof PipelineInvalid)) return [];
  const root = workspaceOf(io.env, io.cwd);
  return error.diagnostics.flatMap((d) => {
    const path = relative(root, resolve(io.cwd, d.file));
    const file = path.startsWith('..') || isAbsolute(path) ? d.file : path.split('\\').join('/');
    const line = ci.issue('error', mask(`${d.message}${d.hint ? `\nhint: ${d.hint}` : ''}`), {
      file,
      line: d.line,
      col: d.col,
    });
    return line === undefined ? [] : [line];
  });
}

/**
 * What an invalid pipeline's findings may quote masked: the credentials its files write literally
 * and the secrets they name (runner/file-secrets.ts learnInvalidFileSecrets), each registered with
 * the CI's own masking as it is learnt, before any finding is printed. Identity for any other error.
 */
export function findingsMask(
  error: unknown,
  io: Pick<CliIO, 'env' | 'stdout'>,
  ci: CiSystem,
): ((text: string) => string) | undefined {
  if (!(error instanceof PipelineInvalid)) return undefined;
  const masker = ciMasker(ci, (line) => io.stdout(`${line}\n`));
  learnInvalidFileSecrets(error, io.env, masker);
  return (text) => masker.mask(text);
}
