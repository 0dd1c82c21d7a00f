// Step outputs as a dotenv file (GitLab's artifacts:reports:dotenv) as a channel: NAME=VALUE lines,
// at most GitLab's limit; what is left out is said as a warning.
import { makeDirectories } from '../../make-directories.ts';
import { dirname } from 'node:path';
import { ciVariablesOf, renderDotenv } from '../../ci/variables.ts';
import { writeAtomic } from '../atomic-write.ts';
import type { Channel } from './channel.ts';

export function dotenvChannel(
  path: string,
  options: { only?: readonly string[] | undefined; warn(message: string): void; said(path: string): void },
): Channel {
  return {
    name: 'dotenv',
    async ended(end) {
      if (!end.report) return;
      const { variables, clashes } = ciVariablesOf(end.report);
      const file = renderDotenv(variables, { only: options.only });
      for (const { name, why } of [...clashes, ...file.left])
        options.warn(
          `--dotenv: ${name} left out (${why})${why.startsWith('over') ? '; choose the ones later jobs read with --dotenv-var NAME' : ''}`,
        );
      try {
        // Its directory is made as a report's is.
        await makeDirectories(dirname(path));
        await writeAtomic(path, file.text);
      } catch (error) {
        return { failed: [`--dotenv ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`] };
      }
      options.said(path);
      return undefined;
    },
  };
}
