// Which CI system runs us: from its environment variables, or forced with --ci NAME.
import { UsageError } from '../errors.ts';

export const CI_NAMES = ['github', 'gitlab', 'azure', 'jenkins', 'plain'] as const;
export type CiName = (typeof CI_NAMES)[number];

export function detectCi(env: Readonly<Record<string, string | undefined>>, forced?: string): CiName {
  if (forced !== undefined) {
    if ((CI_NAMES as readonly string[]).includes(forced)) return forced as CiName;
    throw new UsageError('BAD_CI', `--ci ${forced}: not a CI system enginectl knows`, { hint: `use one of ${CI_NAMES.join(', ')}` });
  }
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  if (env.GITLAB_CI === 'true') return 'gitlab';
  if (env.TF_BUILD?.toLowerCase() === 'true') return 'azure';
  if (env.JENKINS_URL || env.JENKINS_HOME) return 'jenkins';
  return 'plain';
}
