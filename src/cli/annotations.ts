// An invalid pipeline's findings as the CI system's annotations (GitHub's ::error file=..., Azure's
// logissue), each on its file from the workspace root, its line and column: printed by every
// command that loads a pipeline, besides the FILE:LINE:COL lines on stderr.
import { isAbsolute, relative, resolve } from 'node:path';
import { workspaceOf } from '../ci/facts.ts';
import type { CiSystem } from '../ci/system.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import type { CliIO } from './io.ts';

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
