// Every CI system enginectl follows, in the order they are detected (plain, which always
// matches, last): a new one is a file in systems/ and its line here (and its docs).
import { UsageError } from '../errors.ts';
import type { CiSystem, Env } from './system.ts';
import { azure } from './systems/azure.ts';
import { github } from './systems/github.ts';
import { gitlab } from './systems/gitlab.ts';
import { jenkins } from './systems/jenkins.ts';
import { plain } from './systems/plain.ts';

export const CI_SYSTEMS: readonly CiSystem[] = [github, gitlab, azure, jenkins, plain];
export const CI_NAMES = CI_SYSTEMS.map((s) => s.name);

/** The system that runs us, from its environment variables, or the one forced with --ci NAME. */
export function detectCi(env: Env, forced?: string): CiSystem {
  if (forced !== undefined) {
    const named = CI_SYSTEMS.find((s) => s.name === forced);
    if (named) return named;
    throw new UsageError('BAD_CI', `--ci ${forced}: not a CI system enginectl knows`, {
      hint: `use one of ${CI_NAMES.join(', ')}`,
    });
  }
  return CI_SYSTEMS.find((s) => s.detect(env))!;
}
