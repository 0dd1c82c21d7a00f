// An invalid pipeline's findings as the CI system's annotations (GitHub's ::error file=..., Azure's
// logissue), each on its file from the workspace root, its line and column: printed by every
// command that loads a pipeline, besides the FILE:LINE:COL lines on stderr.
import { isAbsolute, relative, resolve } from 'node:path';
import { detectCi } from '../ci/detect.ts';
import { PipelineInvalid } from '../pipeline/diagnostics.ts';
import type { CliIO } from './io.ts';

/** The folder CI paths are relative to: the checkout's root (the start directory outside CI). */
function workspaceOf(env: CliIO['env'], cwd: string): string {
  return env.GITHUB_WORKSPACE ?? env.BUILD_SOURCESDIRECTORY ?? env.CI_PROJECT_DIR ?? cwd;
}

export function annotationsOf(error: unknown, io: Pick<CliIO, 'env' | 'cwd'>): string[] {
  if (!(error instanceof PipelineInvalid)) return [];
  const ci = detectCi(io.env);
  const root = workspaceOf(io.env, io.cwd);
  return error.diagnostics.flatMap((d) => {
    const path = relative(root, resolve(io.cwd, d.file));
    const file = path.startsWith('..') || isAbsolute(path) ? d.file : path.split('\\').join('/');
    const line = ci.issue('error', `${d.message}${d.hint ? `\nhint: ${d.hint}` : ''}`, {
      file,
      line: d.line,
      col: d.col,
    });
    return line === undefined ? [] : [line];
  });
}
